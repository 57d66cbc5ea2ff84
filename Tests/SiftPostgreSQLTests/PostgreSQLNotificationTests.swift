import Foundation
import PostgreSQLTestSupport
import SiftPostgreSQL
import Testing

/// `LISTEN`/`NOTIFY` through the wrapper: a second session opened with the first one's
/// parameters hears what the first sends, when its transaction commits, with the sender's
/// process ID; nothing of a transaction that rolls back.
@Suite struct PostgreSQLNotificationTests {
    /// Reads notifications until `count` came (waiting up to 30 s: a guard against hanging).
    static func receive(_ count: Int, on connection: PostgreSQLConnection) throws -> [PostgreSQLNotification] {
        var received: [PostgreSQLNotification] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while received.count < count && ContinuousClock.now < deadline {
            received += try connection.receivedNotifications()
            if received.count < count { Thread.sleep(forTimeInterval: 0.005) }
        }
        return received
    }

    @Test func listensToAnotherSession() async throws {
        let sender = try await PostgreSQLTestConnection.make()
        let listener = try sender.openedAgain()
        #expect(listener.database == sender.database && listener.user == sender.user)
        #expect(listener.backendPID != sender.backendPID && listener.socketDescriptor >= 0)
        let channel = "sift_test_\(UInt32.random(in: 0...UInt32.max))"
        try listener.execute("LISTEN \(channel)")
        #expect(try listener.receivedNotifications().isEmpty)
        try sender.execute("BEGIN; SELECT pg_notify('\(channel)', 'gone'); ROLLBACK")
        try sender.execute("BEGIN; SELECT pg_notify('\(channel)', 'first'); NOTIFY \(channel); COMMIT")
        let received = try Self.receive(2, on: listener)
        #expect(received == [PostgreSQLNotification(channel: channel, payload: "first", senderPID: sender.backendPID),
                             PostgreSQLNotification(channel: channel, payload: "", senderPID: sender.backendPID)])
        #expect(try listener.receivedNotifications().isEmpty)
    }
}
