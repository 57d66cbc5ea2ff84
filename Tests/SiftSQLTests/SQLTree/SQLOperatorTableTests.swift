@testable import SiftPostgreSQLStore
@testable import SiftSQL
@testable import SiftSQLiteStore
import Testing

/// Every operator of the SQL tree has a binding level in each dialect's precedence table (one
/// left out would be level 0 there, and parenthesised as the loosest operator) and a spelling
/// where the dialect supports it, so a new operator is placed in each dialect before it is used.
@Suite struct SQLOperatorTableTests {
    static var dialects: [any SQLDialect] { [SQLiteDialect(), PostgreSQLDialect()] }

    @Test(arguments: SQLBinaryOperator.allCases)
    func everyBinaryOperatorHasALevelAndASpelling(_ op: SQLBinaryOperator) {
        for dialect in Self.dialects {
            #expect(dialect.precedence.binary[op] != nil, "\(dialect.name) has no level for \(op)")
            if dialect.supports(op) { #expect(!dialect.spelling(of: op).isEmpty, "\(dialect.name) spells \(op) as nothing") }
        }
    }

    @Test(arguments: SQLUnaryOperator.allCases)
    func everyUnaryOperatorHasALevel(_ op: SQLUnaryOperator) {
        for dialect in Self.dialects {
            #expect(dialect.precedence.unary[op] != nil, "\(dialect.name) has no level for \(op)")
        }
    }
}
