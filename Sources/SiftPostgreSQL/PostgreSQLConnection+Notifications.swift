import CLibPQ

/// A notification a server session sent with `NOTIFY channel, 'payload'` (or `pg_notify`), to
/// a connection that runs `LISTEN channel`; delivered when the sending transaction commits.
public struct PostgreSQLNotification: Sendable, Equatable {
    /// The channel it was sent on.
    public var channel: String
    /// Its payload ("" when none was given).
    public var payload: String
    /// The process ID of the server session that sent it (``PostgreSQLConnection/backendPID``
    /// of the sender's connection).
    public var senderPID: Int32

    public init(channel: String, payload: String, senderPID: Int32) {
        self.channel = channel
        self.payload = payload
        self.senderPID = senderPID
    }
}

extension PostgreSQLConnection {
    /// The process ID of the connection's server session (`PQbackendPID`): what a notification
    /// this connection sends carries as its ``PostgreSQLNotification/senderPID``.
    public var backendPID: Int32 { sift_PQbackendPID(handle) }

    /// The connection's socket (`PQsocket`), to wait on with `poll` for notifications; -1 when
    /// the connection is closed.
    public var socketDescriptor: Int32 { sift_PQsocket(handle) }

    /// Reads what the server has sent without blocking (`PQconsumeInput`) and returns the
    /// notifications received, oldest first (empty when none came). Throws when the connection
    /// is lost.
    public func receivedNotifications() throws(PostgreSQLError) -> [PostgreSQLNotification] {
        guard sift_PQconsumeInput(handle) == 1 else { throw PostgreSQLError.from(connection: handle, sql: nil) }
        var received: [PostgreSQLNotification] = []
        while let notification = sift_PQnotifies(handle) {
            let fields = notification.pointee
            received.append(PostgreSQLNotification(channel: fields.relname.map { String(cString: $0) } ?? "",
                                                   payload: fields.extra.map { String(cString: $0) } ?? "",
                                                   senderPID: fields.be_pid))
            sift_PQfreemem(notification)
        }
        return received
    }

    /// A new connection to the same server and database as this one, with the same parameters
    /// (`PQconninfo`: user, password, host, options…): for a second session, such as one that
    /// listens for notifications while this one runs statements.
    public func openedAgain() throws(PostgreSQLError) -> PostgreSQLConnection {
        var settings: [String: String] = [:]
        if let options = sift_PQconninfo(handle) {
            defer { sift_PQconninfoFree(options) }
            var option = options
            while let keyword = option.pointee.keyword {
                if let value = option.pointee.val, value.pointee != 0 {
                    settings[String(cString: keyword)] = String(cString: value)
                }
                option += 1
            }
        }
        return try PostgreSQLConnection("", settings: settings)
    }
}
