import SiftEvaluation
import SiftLanguage

/// A text date column of a database Sift did not create whose every value is NULL or text in
/// one fixed-width form (``ForeignColumn/TextDates``, checked against every value): the column
/// as stored, which orders as its dates do.
struct TextDateColumn {
    /// The column itself (not its `sift_date` reading).
    let column: SQLExpression
    let form: TextDateForm

    /// Whether `expression` is the column's date, as read (`sift_date(column, encoding)`), and
    /// not a value computed from it.
    func isRead(by expression: SQLExpression) -> Bool {
        guard case .function(let name, let arguments) = expression, name == .provided(.registered(.date)), arguments.count == 2,
              case .column(let table, let name) = arguments[0], case .column(let ownTable, let ownName) = column else { return false }
        return table == ownTable && name == ownName
    }
}

/// Comparisons of such a column with a constant date compare the text with the constant written
/// in the column's form — a bound parameter — so an index on the column serves them, as it
/// serves sqlite3's own `InvoiceDate >= '2024-01-01'`:
///
///     InvoiceDate >= "2024-01-01"            "t0"."InvoiceDate" >= ?1      ?1 = '2024-01-01 00:00:00'
///     InvoiceDate < "2024-01-01T12:00:00.5"  "t0"."InvoiceDate" <= ?1      ?1 = '2024-01-01 12:00:00'
///     InvoiceDate BETWEEN {a, b}             "t0"."InvoiceDate" >= ?1 AND "t0"."InvoiceDate" <= ?2
///
/// The answers are the evaluator's (which reads each value through `sift_date`): the form's
/// texts order as their dates, and a constant between two of the form's steps compares with the
/// step before it (`> 12:00:00` for `>= 12:00:00.5`). Nil (the general comparison) for other
/// pairs, and for a constant outside the years 0000 to 9999.
extension PredicateSQLCompiler {
    /// `< <= > >=`.
    func textDateOrdering(_ op: ComparisonOperator, _ l: SQLFragment, _ r: SQLFragment) -> SQLCondition? {
        guard let (column, date, flipped) = Self.textDatePair(l, r), let (text, isExact) = column.form.text(atOrBefore: date) else { return nil }
        // `constant op column` as `column op' constant`.
        let ordering: ComparisonOperator
        switch op {
        case .lessThan: ordering = flipped ? .greaterThan : op
        case .lessThanOrEqualTo: ordering = flipped ? .greaterThanOrEqualTo : op
        case .greaterThan: ordering = flipped ? .lessThan : op
        case .greaterThanOrEqualTo: ordering = flipped ? .lessThanOrEqualTo : op
        case .equalTo, .notEqualTo, .beginsWith, .endsWith, .contains, .like, .matches, .in, .between, .utiConformsTo, .utiEquals: return nil
        }
        // With g the latest date of the form at or before the constant c, and every value on
        // the form's steps: v > c ⇔ v > g; v >= c ⇔ v >= g when c is g, else v > g; v < c ⇔
        // v < g when c is g, else v <= g; v <= c ⇔ v <= g.
        let sqlOperator: SQLBinaryOperator
        switch ordering {
        case .greaterThan: sqlOperator = .greaterThan
        case .greaterThanOrEqualTo: sqlOperator = isExact ? .greaterThanOrEqual : .greaterThan
        case .lessThan: sqlOperator = isExact ? .lessThan : .lessThanOrEqual
        case .lessThanOrEqualTo: sqlOperator = .lessThanOrEqual
        case .equalTo, .notEqualTo, .beginsWith, .endsWith, .contains, .like, .matches, .in, .between, .utiConformsTo, .utiEquals: return nil
        }
        return SQLCondition(expression: .binary(sqlOperator, column.column, context.bind(.text(text))), nullable: true)
    }

    /// `==` (`!=` when `negated`, true where the column is nil): the text itself; never equal
    /// to a constant between two of the form's steps.
    func textDateEquality(_ l: SQLFragment, _ r: SQLFragment, negated: Bool) -> SQLCondition? {
        guard let (column, date, _) = Self.textDatePair(l, r), let (text, isExact) = column.form.text(atOrBefore: date) else { return nil }
        guard isExact else { return negated ? .true : .false }
        let value = context.bind(.text(text))
        return negated ? SQLCondition(expression: .binary(.isNot, column.column, value), nullable: false)
            : SQLCondition(expression: .binary(.equal, column.column, value), nullable: true)
    }

    /// The text date column, the constant date (seconds since 2001) and whether the constant
    /// came first; nil unless the pair is such a column and a constant date.
    private static func textDatePair(_ l: SQLFragment, _ r: SQLFragment) -> (TextDateColumn, Double, flipped: Bool)? {
        if let column = l.textDate, column.isRead(by: l.expression), case .date(let date)? = r.constant {
            return (column, date.timeIntervalSinceReferenceDate, false)
        }
        if let column = r.textDate, column.isRead(by: r.expression), case .date(let date)? = l.constant {
            return (column, date.timeIntervalSinceReferenceDate, true)
        }
        return nil
    }
}
