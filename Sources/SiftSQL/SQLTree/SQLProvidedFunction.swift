/// Every function a store provides that the compiler calls, in one catalogue: the names are
/// the enums' raw values, and nothing else spells them. A dialect says which it has in an
/// exhaustive switch (``SQLDialect/hasProvidedFunction(_:)``), so a new one is decided for each.
package enum SQLProvidedFunction: Hashable, Sendable {
    /// Sift's own functions, registered in every SQLite connection (``SiftSQLFunctions``).
    case registered(SQLRegisteredFunction)
    /// The keyed aggregates registered in SQLite (`@sum`, `@avg`, … in key order).
    case keyedAggregate(SQLKeyedAggregateFunction)
    /// The text functions a PostgreSQL store installs (``SQLTextFunctions``).
    case text(SQLTextFunction)
    /// The number functions a PostgreSQL store installs (``SQLNumberFunction``).
    case number(SQLNumberFunction)

    /// The function's name in SQL.
    package var name: String {
        switch self {
        case .registered(let function): function.rawValue
        case .keyedAggregate(let function): function.rawValue
        case .text(let function): function.rawValue
        case .number(let function): function.rawValue
        }
    }

    /// Whether a call may raise an error where the evaluator gives a value
    /// (``SQLExpression/mayRaise``): the number functions (a numeric beyond a decimal's range).
    package var mayRaise: Bool {
        switch self {
        case .number: true
        case .registered, .keyedAggregate, .text: false
        }
    }

    /// Every provided function.
    package static var allCases: [SQLProvidedFunction] {
        SQLRegisteredFunction.allCases.map(Self.registered) + SQLKeyedAggregateFunction.allCases.map(Self.keyedAggregate)
            + SQLTextFunction.allCases.map(Self.text) + SQLNumberFunction.allCases.map(Self.number)
    }
}

/// Sift's functions registered in SQLite (``SiftSQLFunctions`` says what each computes; the
/// SQLite store registers them under these names).
package enum SQLRegisteredFunction: String, CaseIterable, Sendable {
    case fold = "sift_fold"
    case equals = "sift_equals"
    case compare = "sift_compare"
    case beginsWith = "sift_beginswith"
    case endsWith = "sift_endswith"
    case contains = "sift_contains"
    case like = "sift_like"
    case matches = "sift_matches"
    case call = "sift_call"
    case cast = "sift_cast"
    case order = "sift_order"
    case decimalKey = "sift_decimal_key"
    case decimalText = "sift_decimal_text"
    case date = "sift_date"
    case nfc = "sift_nfc"
    case dateForm = "sift_date_form"
    case groupFirst = "sift_group_first"
    case externalData = "sift_external_data"
}

/// The text functions a PostgreSQL store installs (``SQLTextFunctions``).
package enum SQLTextFunction: String, CaseIterable, Sendable {
    case foldCase = "sift_fold_c"
    case foldDiacritics = "sift_fold_d"
    case foldCaseAndDiacritics = "sift_fold_cd"
    case lowercase = "sift_lowercase"
    case uppercase = "sift_uppercase"
}

/// The number functions the compiler calls in a dialect that has them
/// (``SQLDialect/hasNumberFunctions``), installed by a PostgreSQL store so that the server
/// converts numbers exactly as the evaluator does where no SQL cast does:
///
/// | function | the evaluator's |
/// |---|---|
/// | `sift_decimal_double(numeric)` | `NSDecimalNumber(decimal: d).doubleValue`, how a decimal meets a double |
/// | `sift_double_text(double precision)` | `d.description`, a double's text (`CAST(x, "NSString")`) |
package enum SQLNumberFunction: String, CaseIterable, Sendable {
    case decimalDouble = "sift_decimal_double"
    case doubleText = "sift_double_text"
}
