import Testing
@testable import SiftPostgreSQL

/// libpq's verbose text of a failed connection, taken apart (the live refusals are in
/// PostgreSQLConnectionTests; these are the shapes a test server does not easily produce).
@Suite struct PostgreSQLConnectionFailureTests {
    struct Case: Sendable {
        let text: String
        let sqlState: String
        let message: String
        var detail: String? = nil
        var hint: String? = nil
    }

    @Test(arguments: [
        // Two hosts tried: the last one's code stands, both attempts are told.
        Case(
            text: """
                connection to server at "a" (10.0.0.1), port 5432 failed: Connection refused
                connection to server at "b" (10.0.0.2), port 5432 failed: FATAL:  28P01: password authentication failed for user "me"
                LOCATION:  auth_failed, auth.c:323

                """,
            sqlState: "28P01",
            message: """
                connection to server at "a" (10.0.0.1), port 5432 failed: Connection refused
                connection to server at "b" (10.0.0.2), port 5432 failed: password authentication failed for user "me"
                """),
        Case(
            text: """
                connection to server on socket "/tmp/x/.s.PGSQL.5432" failed: FATAL:  53300: sorry, too many clients already
                DETAIL:  max_connections is 10.
                HINT:  Close some connections.
                LOCATION:  InitProcessPhase2, proc.c:363
                """,
            sqlState: "53300",
            message: #"connection to server on socket "/tmp/x/.s.PGSQL.5432" failed: sorry, too many clients already"#,
            detail: "max_connections is 10.", hint: "Close some connections."),
        // No server code: a client-side failure.
        Case(
            text: "invalid connection option \"nonsense\"\n",
            sqlState: "08001", message: "invalid connection option \"nonsense\""),
        // Text that only looks like a code is left alone.
        Case(
            text: "failed: FATAL:  lower: not a code\n",
            sqlState: "08001", message: "failed: FATAL:  lower: not a code"),
        Case(text: "", sqlState: "08001", message: "could not connect"),
    ])
    func parsesLibpqsText(_ failure: Case) {
        let error = PostgreSQLConnector.parseFailure(failure.text)
        #expect(error.sqlState == failure.sqlState)
        #expect(error.message == failure.message)
        #expect(error.detail == failure.detail)
        #expect(error.hint == failure.hint)
        #expect(error.severity == "FATAL")
    }
}
