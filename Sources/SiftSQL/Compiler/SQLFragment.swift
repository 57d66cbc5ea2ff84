import SiftEvaluation

/// A compiled piece of SQL: its expression tree (``SQLExpression``, whose bound values are
/// parameters, numbered when the statement is rendered), what kind of value it yields, and
/// whether it can be NULL. A constant keeps its value instead of a tree until a comparison
/// knows how to bind it (NFC, folded, …).
///
/// The kind is known statically from the model, which is how the compiler reproduces the
/// evaluator's rules without asking SQLite to coerce anything: values of kinds that never
/// compare equal are decided before any SQL runs, and SQLite only ever compares numbers with
/// numbers, text with text, and so on.
struct SQLFragment {
    var expression: SQLExpression
    var kind: SQLKind
    var nullable: Bool
    /// A constant's value; its parameter is made (and bound) where it is used.
    var constant: Value? = nil
    /// Where the value SQL computes may differ from the evaluator's.
    var divergence: Divergence = []
    /// Reads one column of the row (perhaps through a cheap guard or conversion), so it may be
    /// written twice in a condition (`x >= ?1 AND x < ?2`).
    var readsOneColumn = false
    /// A searchable attribute's column: where its folded text is (``SearchColumns``).
    var search: SearchColumns? = nil
    /// A text date column whose text orders as its dates (``TextDateColumn``): compared with a
    /// constant date as text.
    var textDate: TextDateColumn? = nil
    /// A Decimal column of a database Sift did not create, which holds its decimals as SQLite
    /// numbers (REAL or INTEGER, read back through their shortest text): compared with a
    /// constant that is a double's shortest text as numbers (``DecimalComparisonSQL``).
    var decimalsAreNumbers = false

    /// How a computed value may differ from the evaluator's, so that the tests that would see
    /// the difference are left to the evaluator (they throw ``SQLUnsupported``).
    struct Divergence: OptionSet {
        let rawValue: UInt8

        /// SQLite has no NaN: where the evaluator computes NaN (`sqrt:(-1)`, `inf - inf`), SQL
        /// has NULL. Both are false in every ordering, equality with a value and string test, so
        /// only nil tests (`== nil`, `IS` between two expressions, a qualifier over one value)
        /// and values computed from it (`CAST(…, "NSString")` is `"nan"`) tell them apart.
        static let nanIsNull = Divergence(rawValue: 1)
        /// The evaluator's text may not be NFC (`uppercase:` of NFC text need not be NFC); SQL
        /// holds its NFC form. Every string test but `[n]`'s literal one reads NFC, so only
        /// `[n]` (and a case mapping applied again) tells them apart.
        static let textIsNFC = Divergence(rawValue: 2)
    }

    /// A stored double of a dialect that holds NaN, read as it is stored (NaN and all) rather
    /// than with NaN as NULL: `"t0"."x"` for `nullif("t0"."x", 'NaN')`. Nil for anything else.
    var storedWithNaN: SQLExpression? {
        guard case .function(.standard(.nullif), let arguments) = expression, arguments.count == 2,
              case .string("NaN") = arguments[1], case .column = arguments[0] else { return nil }
        return arguments[0]
    }

    /// The value as SQL computes it with NaN kept, where the fragment reads NaN as NULL
    /// (``Divergence/nanIsNull``) in a dialect that holds NaN: `E` for `nullif(E, 'NaN')`. Every
    /// such form the compiler writes holds NaN exactly where the evaluator's value is NaN and
    /// NULL exactly where it is nil (stored columns, ``storedWithNaN``; sums and averages of
    /// stored doubles; arithmetic and `**` computed from such values, division by zero NULL), so
    /// `E IS NULL` is the evaluator's nil test. The expression itself for a value without the
    /// divergence; nil where NaN may be NULL in SQL with nothing to tell it from nil (SQLite's
    /// computations).
    var withNaN: SQLExpression? {
        guard divergence.contains(.nanIsNull) else { return expression }
        guard case .function(.standard(.nullif), let arguments) = expression, arguments.count == 2, case .string("NaN") = arguments[1] else { return nil }
        return arguments[0]
    }

    /// A dynamic value read as `kind`: itself where its storage class holds that kind, else
    /// NULL — the same truth in every test of a value of `kind` as the evaluator's, since a
    /// value of another kind equals none of it, orders with none of it and is no string. (Not
    /// for nil tests: a value of another kind is not nil.)
    ///
    ///     CASE WHEN typeof("t0"."x") IN ('integer', 'real') THEN "t0"."x" END
    func guarded(as kind: SQLKind) -> SQLFragment? {
        guard self.kind == .dynamic, constant == nil, let classes = kind.storageClasses else { return nil }
        return SQLFragment(expression: .case([(when: .storageClassIn(expression, classes), then: expression)], otherwise: nil),
                           kind: kind == .string ? .string : (kind == .data ? .data : .number(.mixed)),
                           nullable: true, divergence: divergence, readsOneColumn: readsOneColumn)
    }
}

/// The kinds of values a SQL expression yields, as the evaluator's value kinds group them.
package enum SQLKind: Equatable {
    /// Integers, doubles, decimals and booleans: they compare with one another numerically.
    case number(NumberKind)
    case string
    case date
    case data
    case uuid
    /// An object of an entity hierarchy: the SQL value is its row's key in `table`.
    case object(table: String)
    /// Only ever NULL (the `nil` constant).
    case null
    /// Any kind, row by row: an Undefined attribute (a column of a database Sift did not create
    /// whose stored values are of several kinds, read as they are stored). Compared with a value
    /// of a known kind it is read through `typeof()` (``guarded(as:)``); anything else the
    /// evaluator computes on the rows.
    case dynamic

    package enum NumberKind: Equatable {
        case integer, real, boolean, decimal, mixed
    }

    /// Whether values of the two kinds can be equal or ordered at all.
    func isComparable(with other: SQLKind) -> Bool {
        switch (self, other) {
        case (.number, .number), (.string, .string), (.date, .date), (.data, .data), (.uuid, .uuid): return true
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    /// Whether values of this kind have an order (`<`, BETWEEN, MIN, MAX).
    var isOrdered: Bool {
        switch self {
        case .number, .string, .date: true
        default: false
        }
    }

    /// The storage classes (`typeof()`) that hold values of this kind in a column read as
    /// stored; nil for kinds such a column never holds (dates, UUIDs, objects).
    var storageClasses: [String]? {
        switch self {
        case .number: ["integer", "real"]
        case .string: ["text"]
        case .data: ["blob"]
        default: nil
        }
    }

    var isInteger: Bool {
        if case .number(let n) = self { return n == .integer || n == .boolean }
        return false
    }
}
