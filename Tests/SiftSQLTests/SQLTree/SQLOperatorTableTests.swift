import SiftSQLite
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

/// The catalogue of provided functions and what the stores provide agree: every function the
/// compiler may call in SQLite is registered on a connection under its catalogue name, and the
/// names are distinct.
@Suite struct SQLProvidedFunctionTests {
    @Test func theNamesAreDistinct() {
        let names = SQLProvidedFunction.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.hasPrefix("sift_") })
    }

    @Test func sqliteRegistersEveryFunctionItSaysItHas() throws {
        let database = try SiftSQLite.SQLiteDatabase(path: ":memory:")
        try SiftSQLFunctions.register(on: database)
        let registered = Set(try database.rows("SELECT name FROM pragma_function_list").compactMap { row -> String? in
            if case .text(let name) = row.first { return name }
            return nil
        })
        for function in SQLProvidedFunction.allCases {
            #expect(SQLiteDialect().hasProvidedFunction(function) == registered.contains(function.name), "\(function.name)")
        }
    }
}
