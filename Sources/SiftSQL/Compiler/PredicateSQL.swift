import SiftEvaluation
import SiftLanguage
import SiftStore

/// A compiled predicate: SQL that is 1 where the predicate holds, and 0 or NULL where it does
/// not. `nullable` says whether NULL can occur; a WHERE clause treats NULL as false, so it
/// only matters under NOT, which is two-valued here as in the evaluator (`NOT (age > 30)` holds
/// where age is nil): `NOT coalesce(p, 0)` for a nullable p, a plain `NOT p` otherwise, so
/// comparisons on NOT NULL columns keep their plain, index-friendly form.
struct SQLCondition: Sendable {
    var expression: SQLExpression
    var nullable: Bool

    // Made on each use, not stored: an indirect case's box held by a global is a pointer with
    // Swift's enum tag bits, which LeakSanitizer does not recognise, so the fuzzers reported
    // the lazily made globals as leaks.
    static var `true`: SQLCondition { SQLCondition(expression: .boolean(true), nullable: false) }
    static var `false`: SQLCondition { SQLCondition(expression: .boolean(false), nullable: false) }

    var isTrue: Bool { expression.isBoolean(true) }
    var isFalse: Bool { expression.isBoolean(false) }

    /// SQL that is exactly 1 or 0: `coalesce(p, 0)` for a nullable p.
    var twoValued: SQLExpression { nullable ? .function(.standard(.coalesce), [expression, .boolean(false)]) : expression }

    /// `NOT p` (parenthesised by the renderer where p binds less tightly than NOT).
    var negated: SQLCondition {
        if isTrue { return .false }
        if isFalse { return .true }
        return SQLCondition(expression: .not(twoValued), nullable: false)
    }
}

/// Compiles predicates to SQL conditions with the evaluator's exact semantics (LANGUAGE.md
/// §3–5): nil-safe `==`, `!=` as `NOT ==`, false for every other operator with a nil operand,
/// no coercion between kinds, string options through the registered Swift functions, to-many
/// key paths as correlated subqueries with ANY/ALL/NONE and implicit ANY.
///
/// A construct it does not compile throws ``SQLUnsupported``; the store then evaluates that
/// part in memory.
struct PredicateSQLCompiler {
    let schema: SQLSchema
    let context: SQLGenerationContext
    var expressions: ExpressionSQLCompiler { ExpressionSQLCompiler(schema: schema, context: context) }

    func condition(_ predicate: PredicateNode, in scope: SQLScope) throws -> SQLCondition {
        switch predicate.kind {
        case .constant(let value):
            return value ? .true : .false
        case .and(let parts):
            return try combine(parts.map { try condition($0, in: scope) }, with: .and)
        case .or(let parts):
            return try combine(parts.map { try condition($0, in: scope) }, with: .or)
        case .not(let inner):
            return try condition(inner, in: scope).negated
        case .comparison(let comparison):
            return try self.comparison(comparison, in: scope)
        }
    }

    /// How ``combine(_:with:)`` joins conditions.
    enum Connective { case and, or }

    /// The conditions joined by AND or OR, true and false folded away; the renderer
    /// parenthesises an OR inside an AND.
    func combine(_ parts: [SQLCondition], with op: Connective) -> SQLCondition {
        let identity: SQLCondition = op == .and ? .true : .false
        let absorbing: SQLCondition = op == .and ? .false : .true
        if parts.contains(where: { $0.expression.isBoolean(absorbing.isTrue) }) { return absorbing }
        let kept = parts.filter { !$0.expression.isBoolean(identity.isTrue) }
        guard !kept.isEmpty else { return identity }
        if kept.count == 1 { return kept[0] }
        let expressions = kept.map(\.expression)
        return SQLCondition(expression: op == .and ? .and(expressions) : .or(expressions), nullable: kept.contains { $0.nullable })
    }

    // MARK: Comparisons

    private func comparison(_ c: Comparison, in scope: SQLScope) throws -> SQLCondition {
        if c.operator == .utiConformsTo || c.operator == .utiEquals { throw SQLUnsupported(c.operator.symbol) }
        let options = c.options.contains(.normalized) ? ComparisonOptions.normalized : c.options.intersection([.caseInsensitive, .diacriticInsensitive])
        let left = try expressions.operand(c.left, in: scope)
        let right = try expressions.operand(c.right, in: scope)
        // `[n]` compares the evaluator's text literally; SQL may hold a case mapping's NFC form.
        if options.contains(.normalized), [left, right].contains(where: { $0.diverges(.textIsNFC) }) {
            throw SQLUnsupported("[n] on a case-mapped string")
        }
        let op = c.operator
        switch c.modifier {
        case .any, .all, .none:
            return try qualified(c.modifier, op, options, left, right)
        case .direct:
            return try direct(op, options, left, right)
        }
    }

    /// `ANY`/`ALL`/`NONE`: the test on each element of the left side (nil is empty, one value
    /// a collection of one).
    private func qualified(_ modifier: ComparisonModifier, _ op: ComparisonOperator, _ options: ComparisonOptions,
                           _ left: SQLOperand, _ right: SQLOperand) throws -> SQLCondition {
        switch left {
        case .collection(let path):
            switch modifier {
            case .any: return SQLCondition(expression: try some(path) { try elementTest(op, options, $0, right) }, nullable: false)
            case .none: return SQLCondition(expression: .not(try some(path) { try elementTest(op, options, $0, right) }), nullable: false)
            case .all: return SQLCondition(expression: .not(try some(path) { try elementTest(op, options, $0, right).negated }), nullable: false)
            case .direct: throw Self.unqualified()
            }
        case .single(let value):
            // One value is a collection of one, nil an empty one: NaN (NULL in SQL) is not nil.
            guard !value.divergence.contains(.nanIsNull) else { throw SQLUnsupported("a qualifier over a value that may be NaN") }
            let x = try expressions.materialised(value)
            let test = try elementTest(op, options, x, right)
            if !x.nullable {
                return modifier == .none ? test.negated : (modifier == .all ? SQLCondition(expression: test.twoValued, nullable: false) : test)
            }
            let isNull = SQLExpression.isNull(x.expression, negated: false)
            switch modifier {
            case .any: return SQLCondition(expression: .and([.isNull(x.expression, negated: true), test.twoValued]), nullable: false)
            case .all: return SQLCondition(expression: .or([isNull, test.twoValued]), nullable: false)
            case .none: return SQLCondition(expression: .or([isNull, test.negated.expression]), nullable: false)
            case .direct: throw Self.unqualified()
            }
        case .constants(let elements):
            let tests = try elements.map { try elementTest(op, options, ExpressionSQLCompiler.constant($0), right) }
            switch modifier {
            case .any: return combine(tests, with: .or)
            case .none: return combine(tests, with: .or).negated
            case .all: return combine(tests.map { SQLCondition(expression: $0.twoValued, nullable: false) }, with: .and)
            case .direct: throw Self.unqualified()
            }
        }
    }

    /// The test on one element of a qualified comparison's left side. A to-many key path on the
    /// right is one value to the evaluator — the whole collection, or nil where a to-one before
    /// the to-many step is nil — so only `IN` looks inside it (`EXISTS (… AND <element> IS x)`);
    /// no other operator matches a collection (`ANY 5 > items.count` is false, `!=` true), and
    /// nil only equals nil: `("t1"."name" IS NULL AND "t2"."_pk" IS NULL)`.
    private func elementTest(_ op: ComparisonOperator, _ options: ComparisonOptions, _ x: SQLFragment, _ right: SQLOperand) throws -> SQLCondition {
        guard case .collection(let path) = right else { return try pair(op, options, x, right) }
        switch op {
        case .in:
            return SQLCondition(expression: try some(path) { try pair(.equalTo, options, x, .single($0)) }, nullable: false)
        case .between:
            throw SQLUnsupported("BETWEEN a to-many key path")
        case .equalTo, .notEqualTo:
            var bothNil = SQLCondition.false
            if let missingOwner = path.missingOwner {
                if let value = x.constant {
                    if value.isNull { bothNil = SQLCondition(expression: missingOwner, nullable: false) }
                } else if x.nullable || x.kind == .null {
                    // NaN, which SQL may hold as NULL, is not nil.
                    let value = try expressions.materialised(x)
                    guard let isNil = Self.nilTest(value) else { throw SQLUnsupported("a value that may be NaN compared with a to-many key path") }
                    bothNil = SQLCondition(expression: .and([isNil, missingOwner]), nullable: false)
                }
            }
            return op == .equalTo ? bothNil : bothNil.negated
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .beginsWith, .endsWith, .contains, .like, .matches,
             .utiConformsTo, .utiEquals:
            return .false
        }
    }

    /// An unqualified comparison: the test on two values, with implicit ANY when one side is a
    /// collection (CONTAINS with a collection on the left and IN with one on the right are
    /// membership).
    private func direct(_ op: ComparisonOperator, _ options: ComparisonOptions, _ left: SQLOperand, _ right: SQLOperand) throws -> SQLCondition {
        switch (left, right) {
        case (.single(let l), _) where op == .in || op == .between:
            if case .collection(let path) = right {
                guard op == .in else { throw SQLUnsupported("BETWEEN a to-many key path") }
                return SQLCondition(expression: try some(path) { try pair(.equalTo, options, l, .single($0)) }, nullable: false)
            }
            return try pair(op, options, l, right)
        case (.single(let l), .single):
            return try pair(op, options, l, right)
        case (.collection(let path), _):
            if op == .contains { return SQLCondition(expression: try some(path) { try pair(.equalTo, options, $0, right) }, nullable: false) }
            if op == .equalTo || op == .notEqualTo, !isSingle(right) { throw SQLUnsupported("comparing two collections") }
            if case .collection = right { throw SQLUnsupported("comparing two to-many key paths") }
            let any = SQLCondition(expression: try some(path) { try pair(op, options, $0, right) }, nullable: false)
            return try implicitAny(any, over: path) { try pair(op, options, ExpressionSQLCompiler.constant(.null), right) }
        case (.single(let l), .collection(let path)):
            let any = SQLCondition(expression: try some(path) { try pair(op, options, l, .single($0)) }, nullable: false)
            return try implicitAny(any, over: path) { try pair(op, options, l, .single(ExpressionSQLCompiler.constant(.null))) }
        case (.single(let l), .constants(let elements)):
            // Implicit ANY over the right-hand elements.
            return combine(try elements.map { try pair(op, options, l, .single(ExpressionSQLCompiler.constant($0))) }, with: .or)
        case (.constants(let elements), _):
            if op == .contains {
                return combine(try elements.map { try pair(.equalTo, options, ExpressionSQLCompiler.constant($0), right) }, with: .or)
            }
            if op == .equalTo || op == .notEqualTo, !isSingle(right) { throw SQLUnsupported("comparing two collections") }
            guard case .single = right else { throw SQLUnsupported("a constant collection compared with a collection") }
            return combine(try elements.map { try pair(op, options, ExpressionSQLCompiler.constant($0), right) }, with: .or)
        }
    }

    /// Whether some element of the path passes `test` (the test on one element's value):
    /// `EXISTS (…)`, or the path's chain of semi-joins where it crosses several to-many steps
    /// (``CollectionPath/exists(_:nilTest:)``), which is told the test's answer on a nil element.
    private func some(_ path: CollectionPath, _ test: (SQLFragment) throws -> SQLCondition) throws -> SQLExpression {
        let condition = try test(path.element)
        let onNil = path.hasNilPaths ? try? test(ExpressionSQLCompiler.constant(.null)) : nil
        return path.exists(condition.expression, nilTest: onNil)
    }

    /// Implicit ANY over a to-many key path (`EXISTS (…)`), and where to-one steps before the
    /// to-many one reach nil, the evaluator's test on that one nil instead (`nilTest`, the test
    /// with nil in the collection's place):
    /// `(EXISTS (…) OR ("t1"."_pk" IS NULL AND <nil test>))` — `owner.items.name != "x"`
    /// holds where the owner is nil. Both sides are exactly 1 or 0, since the subquery is
    /// empty where the owner is missing.
    private func implicitAny(_ any: SQLCondition, over path: CollectionPath, nilTest: () throws -> SQLCondition) throws -> SQLCondition {
        guard let missingOwner = path.missingOwner else { return any }
        let onNil = try nilTest()
        return combine([any, combine([SQLCondition(expression: missingOwner, nullable: false), SQLCondition(expression: onNil.twoValued, nullable: false)],
                                     with: .and)],
                       with: .or)
    }

    private func isSingle(_ operand: SQLOperand) -> Bool {
        if case .single = operand { return true }
        return false
    }

    // MARK: The test on one pair of values

    /// The evaluator's test on one pair of values (ComparisonCompiler's `pairTest`).
    private func pair(_ op: ComparisonOperator, _ options: ComparisonOptions, _ left: SQLFragment, _ right: SQLOperand) throws -> SQLCondition {
        if left.kind == .dynamic, op == .in || op == .between { return try dynamicPair(op, options, left, right) }
        // `x IN value` with a value of undefined kind: a substring test where it is text, else equality.
        if op == .in, case .single(let r) = right, r.kind == .dynamic, left.kind != .null, left.kind != .dynamic {
            guard let guarded = r.guarded(as: left.kind) else { throw SQLUnsupported("IN a value of undefined kind") }
            return try membership(options, left, .single(guarded))
        }
        switch op {
        case .in:
            return try membership(options, left, right)
        case .between:
            return try between(options, left, right)
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .beginsWith, .endsWith, .contains,
             .like, .matches, .utiConformsTo, .utiEquals:
            guard case .single(let r) = right else {
                // A collection on the right of a single pair: the evaluator's test sees a
                // collection value, which no ordering or string operator accepts.
                if case .constants = right, op == .equalTo || op == .notEqualTo { throw SQLUnsupported("comparing a value with a collection") }
                throw SQLUnsupported("\(op.symbol) with a collection")
            }
            return try pair(op, options, left, r)
        }
    }

    private func pair(_ op: ComparisonOperator, _ options: ComparisonOptions, _ l: SQLFragment, _ r: SQLFragment) throws -> SQLCondition {
        // Two constants: the evaluator answers now.
        if let a = l.constant, let b = r.constant { return try constantTest(op, options, a, b) }
        // (Against nil the value stays as it is: `IS NULL`; every other test with nil is false.)
        if l.kind == .dynamic || r.kind == .dynamic, l.kind != .null, r.kind != .null, op != .in, op != .between {
            let (x, y) = try guardedPair(op, l, r)
            return try pair(op, options, x, y)
        }
        switch op {
        case .equalTo: return try equality(options, l, r)
        case .notEqualTo: return try equality(options, l, r, negated: true)
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: return try order(op, options, l, r)
        case .beginsWith, .endsWith, .contains, .like, .matches: return try stringTest(op, options, l, r)
        case .in, .between: return try pair(op, options, l, .single(r))
        case .utiConformsTo, .utiEquals: throw SQLUnsupported(op.symbol)
        }
    }

    /// A value of undefined kind (``SQLKind/dynamic``) against one of a known kind: read as that
    /// kind (``SQLFragment/guarded(as:)``), so a row holding another kind is NULL to SQL and false
    /// (or true for `!=`) exactly as in the evaluator.
    private func guardedPair(_ op: ComparisonOperator, _ l: SQLFragment, _ r: SQLFragment) throws -> (SQLFragment, SQLFragment) {
        if l.kind == .dynamic && r.kind == .dynamic { throw SQLUnsupported("comparing two values of undefined kinds") }
        let (value, other) = l.kind == .dynamic ? (l, r) : (r, l)
        // Nil-safe equality with another expression would take the guard's NULL for nil.
        if op == .equalTo || op == .notEqualTo, other.constant == nil {
            throw SQLUnsupported("nil-safe equality between a value of undefined kind and an expression")
        }
        guard let guarded = value.guarded(as: other.kind) else { throw SQLUnsupported("a value of undefined kind compared with a \(other.kind)") }
        return l.kind == .dynamic ? (guarded, r) : (l, guarded)
    }

    /// `IN` and `BETWEEN` on a value of undefined kind: IN constants as `==` with each (nil-safe),
    /// IN a string as a substring test, BETWEEN bounds of one kind on the value read as that kind.
    private func dynamicPair(_ op: ComparisonOperator, _ options: ComparisonOptions, _ left: SQLFragment, _ right: SQLOperand) throws -> SQLCondition {
        switch (op, right) {
        case (.in, .constants(let elements)):
            return combine(try elements.map { try pair(.equalTo, options, left, ExpressionSQLCompiler.constant($0)) }, with: .or)
        case (.in, .single(let r)) where r.kind == .string:
            guard let guarded = left.guarded(as: .string) else { break }
            return try membership(options, guarded, right)
        case (.between, .constants(let bounds)) where bounds.count == 2:
            let kinds = bounds.map(ExpressionSQLCompiler.kind(of:))
            guard !bounds[0].isNull, !bounds[1].isNull, kinds[0].isComparable(with: kinds[1]), let guarded = left.guarded(as: kinds[0]) else { break }
            return try between(options, guarded, right)
        default: break
        }
        throw SQLUnsupported("\(op.symbol) on a value of undefined kind")
    }

    /// The evaluator's own answer for two constants.
    private func constantTest(_ op: ComparisonOperator, _ options: ComparisonOptions, _ a: Value, _ b: Value) throws -> SQLCondition {
        guard let x = ConstantValue(a), let y = ConstantValue(b) else { throw SQLUnsupported("comparing object constants") }
        let predicate = PredicateNode(.comparison(Comparison(ExpressionNode(.constant(x)), op, ExpressionNode(.constant(y)), options: options)))
        return try CompiledPredicate(predicate).evaluate(.null) ? .true : .false
    }

    /// Nil-safe equality: `x = ?` against a constant (NULL where x is nil, which is false), `x IS y`
    /// between two expressions, `x IS NULL` against nil; never equal across kinds.
    private func equality(_ options: ComparisonOptions, _ l: SQLFragment, _ r: SQLFragment, negated: Bool) throws -> SQLCondition {
        if let search = searchEquality(options, l, r, negated: negated) { return search }
        if let text = textDateEquality(l, r, negated: negated) { return text }
        // `x != constant` as `x IS NOT ?`: true where x is nil, exactly as `NOT ==`.
        if negated, (l.constant != nil) != (r.constant != nil), l.kind != .null, r.kind != .null, !isObjectConstantPair(l, r),
           l.kind.isComparable(with: r.kind), l.kind != .string || options.subtracting(.normalized).isEmpty, !Self.isDecimalPair(l, r),
           !isInexactNumberPair(l, r) {
            let (x, y) = try bindPair(l, r, options: options)
            return SQLCondition(expression: .binary(.isNot, x.expression, y.expression), nullable: false)
        }
        let condition = try equality(options, l, r)
        return negated ? condition.negated : condition
    }

    /// `x IS NULL` exactly where the evaluator's value is nil: on a stored double's column (NaN is
    /// not nil), or on a value SQL never holds as NULL for NaN; nil when it may (a computed NaN).
    static func nilTest(_ x: SQLFragment) -> SQLExpression? {
        x.withNaN.map { .isNull($0, negated: false) }
    }

    func equality(_ options: ComparisonOptions, _ l: SQLFragment, _ r: SQLFragment) throws -> SQLCondition {
        // A decimal and a double: two doubles, as in the evaluator (where the dialect can convert).
        if let (x, y) = expressions.decimalsAsDoubles(l, r) { return try equality(options, x, y) }
        if let exact = try exactNumberComparison(.equalTo, l, r) { return exact }
        // Nil-safe equality tells NULL from the NaN SQL holds as NULL; equality with a constant
        // (`x = ?`) does not.
        if l.divergence.contains(.nanIsNull) || r.divergence.contains(.nanIsNull), l.constant == nil && r.constant == nil || l.kind == .null || r.kind == .null {
            // A stored double of a dialect holding NaN is nil exactly where its column is NULL.
            if l.kind == .null || r.kind == .null, let test = Self.nilTest(l.kind == .null ? r : l) {
                return l.kind == .null && r.kind == .null ? .true : SQLCondition(expression: test, nullable: false)
            }
            // Two numbers, at least one a stored double (or, in PostgreSQL, decimal) read with
            // NaN as NULL: equal, or both nil (tested on the stored column, where NaN is not
            // NULL). (SQLite holds decimals as text, which `=` does not compare as numbers.)
            if case .number(let m) = l.kind, case .number(let n) = r.kind,
               (m != .decimal && n != .decimal) || (!context.dialect.hasSiftFunctions && [m, n].allSatisfy { [.decimal, .integer, .boolean].contains($0) }),
               let lNil = Self.nilTest(l), let rNil = Self.nilTest(r) {
                return SQLCondition(expression: .function(.standard(.coalesce), [.binary(.equal, l.expression, r.expression), .and([lNil, rNil])]), nullable: false)
            }
            throw SQLUnsupported("nil-safe equality with a value that may be NaN")
        }
        if l.kind == .null || r.kind == .null {
            if l.kind == .null && r.kind == .null { return .true }
            // nil against a constant (an object ID too, which binds only against an entity).
            if let value = (l.kind == .null ? r : l).constant { return value.isNull ? .true : .false }
            let other = try expressions.materialised(l.kind == .null ? r : l)
            return SQLCondition(expression: .isNull(other.expression, negated: false), nullable: false)
        }
        guard l.kind.isComparable(with: r.kind) || isObjectConstantPair(l, r) else {
            // Kinds that never compare equal: only nil equals nil.
            guard l.constant == nil, r.constant == nil, l.nullable, r.nullable else { return .false }
            let x = try expressions.materialised(l), y = try expressions.materialised(r)
            return SQLCondition(expression: .and([.isNull(x.expression, negated: false), .isNull(y.expression, negated: false)]), nullable: false)
        }
        if Self.isDecimalPair(l, r) { return try decimalEquality(l, r) }
        if let search = searchEquality(options, l, r, negated: false) { return search }
        if let text = textDateEquality(l, r, negated: false) { return text }
        if l.kind == .string && !options.subtracting(.normalized).isEmpty {
            // [c]/[d]: the evaluator's own string equality (the prepared texts' in PostgreSQL,
            // which binds its own constants); nil only equals nil.
            let test: SQLExpression, x: SQLFragment, y: SQLFragment
            if let prepared = try preparedTextTest(.equals, options, l, r) {
                (test, x, y) = (prepared, l, r)
            } else {
                (x, y) = try bindPair(l, r, options: options)
                test = .function(.provided(.registered(.equals)), [x.expression, y.expression, .integer(Int64(options.rawValue))])
            }
            if l.constant != nil || r.constant != nil { return SQLCondition(expression: test, nullable: true) }
            return SQLCondition(expression: .function(.standard(.coalesce), [test, .binary(.is, x.expression, y.expression)]), nullable: false)
        }
        let (x, y) = try bindPair(l, r, options: options)
        if l.constant != nil || r.constant != nil {
            return SQLCondition(expression: .binary(.equal, x.expression, y.expression), nullable: x.nullable || y.nullable)
        }
        return SQLCondition(expression: .binary(.is, x.expression, y.expression), nullable: false)
    }

    private func isObjectConstantPair(_ l: SQLFragment, _ r: SQLFragment) -> Bool {
        if case .object = l.kind, case .object = r.kind { return true }
        return false
    }

    /// Binds the constant side of a pair the way the other side is stored: objects as the
    /// other side's table's key, text NFC (literal under [n]).
    private func bindPair(_ l: SQLFragment, _ r: SQLFragment, options: ComparisonOptions, rawText: Bool = false) throws -> (SQLFragment, SQLFragment) {
        let raw = rawText || options.contains(.normalized)
        func bound(_ f: SQLFragment, other: SQLFragment) throws -> SQLFragment {
            guard let value = f.constant else { return f }
            var result = f
            result.expression = try expressions.bind(value, for: f.kind == .object(table: "") ? other.kind : f.kind, rawText: raw)
            result.constant = nil
            // An object ID is looked up: NULL when no such object exists.
            if case .object = value { result.nullable = true }
            return result
        }
        return (try bound(l, other: r), try bound(r, other: l))
    }

    /// `< <= > >=`: numbers, text (code-point order of NFC, or the evaluator's folded order
    /// under [c]/[d]) and dates; false for nil and for kinds with no common order.
    func order(_ op: ComparisonOperator, _ options: ComparisonOptions, _ l: SQLFragment, _ r: SQLFragment) throws -> SQLCondition {
        guard l.kind.isComparable(with: r.kind), l.kind.isOrdered else { return .false }
        if Self.isDecimalPair(l, r) { return try decimalOrdering(op, l, r) }
        if let search = searchOrdering(op, options, l, r) { return search }
        if let text = textDateOrdering(op, l, r) { return text }
        if let exact = try exactNumberComparison(op, l, r) { return exact }
        if l.kind == .string && !options.subtracting(.normalized).isEmpty,
           let test = try preparedTextTest(.order(try Self.orderOperator(op)), options, l, r) {
            return SQLCondition(expression: test, nullable: true)
        }
        let (x, y) = try bindPair(l, r, options: options)
        if l.kind == .string && !options.subtracting(.normalized).isEmpty {
            let compare = SQLExpression.function(.provided(.registered(.compare)), [x.expression, y.expression, .integer(Int64(options.rawValue))])
            return SQLCondition(expression: .binary(try Self.orderOperator(op), compare, .integer(0)), nullable: true)
        }
        return SQLCondition(expression: .binary(try Self.orderOperator(op), x.expression, y.expression), nullable: x.nullable || y.nullable)
    }

    /// BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES: text only (false otherwise), through the
    /// evaluator's functions registered in SQLite; a case-sensitive BEGINSWITH of a column on a
    /// constant is a range, so an index on the column serves it. A constant needle that is empty
    /// once prepared (`""`, or a lone mark under [d]) is false, as in the evaluator (LANGUAGE.md
    /// §4: an empty needle never matches); a needle read from a row goes to the functions, which
    /// say so themselves.
    private func stringTest(_ op: ComparisonOperator, _ options: ComparisonOptions, _ l: SQLFragment, _ r: SQLFragment) throws -> SQLCondition {
        guard l.kind == .string, r.kind == .string else { return .false }
        if op == .beginsWith || op == .endsWith || op == .contains, case .string(let needle)? = r.constant,
           StringPredicates.isEmptyNeedle(needle, options: options) {
            return .false
        }
        if let search = searchStringTest(op, options, l, r) { return search }
        // (Only on a column: a computed value would be computed twice, and no index serves it.)
        if op == .beginsWith, options.subtracting(.normalized).isEmpty, case .string(let prefix)? = r.constant, l.constant == nil, l.readsOneColumn || l.expression.isSimple {
            let x = try expressions.materialised(l)
            let text = StringPredicates.prepared(prefix, options: options)
            let low = context.bind(.text(text))
            if let high = Self.successor(of: text) {
                return SQLCondition(expression: .and([.binary(.greaterThanOrEqual, x.expression, low),
                                                      .binary(.lessThan, x.expression, context.bind(.text(high)))]), nullable: true)
            }
            return SQLCondition(expression: .and([.binary(.greaterThanOrEqual, x.expression, low),
                                                  .function(.provided(.registered(.beginsWith)), [x.expression, low, .integer(Int64(options.rawValue))])]), nullable: true)
        }
        // CONTAINS and ENDSWITH of a column on a constant: `instr`/the last bytes, as on
        // a searchable attribute's folded column (both sides NFC, or both as they are under [n]).
        if op == .contains || op == .endsWith, options.subtracting(.normalized).isEmpty, case .string(let needle)? = r.constant,
           l.constant == nil, l.readsOneColumn || l.expression.isSimple, !l.divergence.contains(.textIsNFC) {
            let x = try expressions.materialised(l)
            let text = StringPredicates.prepared(needle, options: options)
            let value = context.bind(.text(text))
            let test: SQLExpression = op == .contains ? .binary(.greaterThan, .function(.standard(.instr), [x.expression, value]), .integer(0))
                : .endsWith(x.expression, suffix: value, characters: Int64(text.unicodeScalars.count))
            return SQLCondition(expression: test, nullable: true)
        }
        if op == .like, let test = try preparedLike(options, l, r) { return SQLCondition(expression: test, nullable: true) }
        if op == .matches, let test = try preparedMatches(options, l, r) { return SQLCondition(expression: test, nullable: true) }
        let prepared: PreparedTextTest? = op == .beginsWith ? .beginsWith : op == .endsWith ? .endsWith : op == .contains ? .contains : nil
        if let prepared, let test = try preparedTextTest(prepared, options, l, r) { return SQLCondition(expression: test, nullable: true) }
        // The functions prepare both sides themselves, exactly as the evaluator does.
        let (x, y) = try bindPair(l, r, options: options, rawText: true)
        let function: SQLRegisteredFunction
        switch op {
        case .beginsWith: function = .beginsWith
        case .endsWith: function = .endsWith
        case .contains: function = .contains
        case .like: function = .like
        case .matches: function = .matches
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .in, .between, .utiConformsTo, .utiEquals:
            // A new operator is handled here on purpose, never sent to another's function.
            assertionFailure("'\(op.symbol)' is not a string operator")
            throw SQLUnsupported("'\(op.symbol)' as a string test")
        }
        return SQLCondition(expression: .function(.provided(.registered(function)), [x.expression, y.expression, .integer(Int64(options.rawValue))]), nullable: true)
    }

    /// The least string greater than every string that begins with `prefix`, in code-point
    /// (UTF-8 byte) order: the prefix with its last scalar incremented (past the surrogates),
    /// trailing U+10FFFFs dropped first since none follows them; nil when nothing is left (no
    /// string is greater than all of them: every string at or above such a prefix begins with it).
    static func successor(of prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            guard let scalar = Unicode.Scalar(next) else { continue }
            scalars.append(scalar)
            var result = ""
            result.unicodeScalars.append(contentsOf: scalars)
            return result
        }
        return nil
    }

    /// `IN`: membership in constants (nil-safe equality), substring of a text, or equality.
    private func membership(_ options: ComparisonOptions, _ l: SQLFragment, _ right: SQLOperand) throws -> SQLCondition {
        switch right {
        case .constants(let elements):
            if let search = searchMembership(options, l, elements) { return search }
            if let folded = try foldedMembership(options, l, elements) { return folded }
            let plain = options.subtracting(.normalized).isEmpty || l.kind != .string
            let comparable = elements.filter { !$0.isNull && l.kind.isComparable(with: ExpressionSQLCompiler.kind(of: $0)) }
            // (Decimals compare as numbers, not as the text SQLite holds: equality by equality.)
            // (A text date column compares with each date as text: equality by equality.)
            if plain, l.constant == nil, !comparable.isEmpty, l.kind != .object(table: ""), l.kind != .number(.decimal),
               !comparable.contains(where: Self.isDecimal), l.textDate == nil,
               !comparable.contains(where: { isInexactNumberPair(l, ExpressionSQLCompiler.constant($0)) }) {
                let x = try expressions.materialised(l)
                let placeholders = try comparable.map { try expressions.bind($0, for: l.kind, rawText: options.contains(.normalized)) }
                let list = SQLCondition(expression: .in(x.expression, placeholders), nullable: x.nullable)
                guard elements.contains(where: \.isNull) else { return list }
                guard let isNil = Self.nilTest(x) else { throw SQLUnsupported("IN a nil with a value that may be NaN") }
                return combine([list, SQLCondition(expression: isNil, nullable: false)], with: .or)
            }
            return combine(try elements.map { try equality(options, l, ExpressionSQLCompiler.constant($0)) }, with: .or)
        case .single(let r):
            if let value = r.constant, value.isNull { return .false }
            if r.kind == .string {
                guard l.kind == .string else { return .false }
                // `"" IN s` is a substring test with an empty needle: never true.
                if case .string(let needle)? = l.constant, StringPredicates.isEmptyNeedle(needle, options: options) { return .false }
                if let search = searchSubstring(options, needle: l, in: r) { return search }
                if let test = try preparedTextTest(.contains, options, r, l) { return SQLCondition(expression: test, nullable: true) }
                let (x, y) = try bindPair(l, r, options: options, rawText: true)
                return SQLCondition(expression: .function(.provided(.registered(.contains)), [y.expression, x.expression, .integer(Int64(options.rawValue))]), nullable: true)
            }
            guard !r.nullable || r.constant != nil else {
                // A nil right side is false for IN, not "equal to nil".
                let equal = try equality(options, l, r)
                let y = try expressions.materialised(r)
                return combine([SQLCondition(expression: .isNull(y.expression, negated: true), nullable: false), equal], with: .and)
            }
            return try equality(options, l, r)
        case .collection:
            throw SQLUnsupported("IN a to-many key path inside a qualifier")
        }
    }

    /// `x BETWEEN {lo, hi}`: `lo <= x AND x <= hi` by the evaluator's order; false unless the
    /// right side is two values with an order against x.
    private func between(_ options: ComparisonOptions, _ l: SQLFragment, _ right: SQLOperand) throws -> SQLCondition {
        guard case .constants(let bounds) = right else {
            if case .single(let r) = right, r.constant != nil { return .false }
            throw SQLUnsupported("BETWEEN with bounds that are not constants")
        }
        guard bounds.count == 2 else { return .false }
        let low = ExpressionSQLCompiler.constant(bounds[0]), high = ExpressionSQLCompiler.constant(bounds[1])
        guard !bounds[0].isNull, !bounds[1].isNull, l.kind.isOrdered,
              l.kind.isComparable(with: low.kind), l.kind.isComparable(with: high.kind) else {
            if l.constant != nil { return try constantBetween(options, l, bounds) }
            return .false
        }
        if l.constant != nil { return try constantBetween(options, l, bounds) }
        if (l.kind == .string && !options.subtracting(.normalized).isEmpty) || Self.isDecimalPair(l, low) || Self.isDecimalPair(l, high)
            || l.textDate != nil || isInexactNumberPair(l, low) || isInexactNumberPair(l, high) {
            return combine([try order(.greaterThanOrEqualTo, options, l, low), try order(.lessThanOrEqualTo, options, l, high)], with: .and)
        }
        let x = try expressions.materialised(l)
        let lo = try expressions.bind(bounds[0], for: l.kind, rawText: options.contains(.normalized))
        let hi = try expressions.bind(bounds[1], for: l.kind, rawText: options.contains(.normalized))
        return SQLCondition(expression: .between(x.expression, lo, hi), nullable: x.nullable)
    }

    private func constantBetween(_ options: ComparisonOptions, _ l: SQLFragment, _ bounds: [Value]) throws -> SQLCondition {
        guard let value = l.constant, let x = ConstantValue(value) else { return .false }
        let elements = try bounds.map { (b: Value) throws -> ExpressionNode in
            guard let c = ConstantValue(b) else { throw SQLUnsupported("BETWEEN bounds") }
            return ExpressionNode(.constant(c))
        }
        let predicate = PredicateNode(.comparison(Comparison(ExpressionNode(.constant(x)), .between, ExpressionNode(.aggregate(elements)), options: options)))
        return try CompiledPredicate(predicate).evaluate(.null) ? .true : .false
    }
}

extension PredicateSQLCompiler {
    /// The SQL operator of an ordering comparison.
    static func orderOperator(_ op: ComparisonOperator) throws -> SQLBinaryOperator {
        switch op {
        case .lessThan: .lessThan
        case .lessThanOrEqualTo: .lessThanOrEqual
        case .greaterThan: .greaterThan
        case .greaterThanOrEqualTo: .greaterThanOrEqual
        case .equalTo, .notEqualTo, .beginsWith, .endsWith, .contains, .like, .matches, .in, .between, .utiConformsTo, .utiEquals:
            throw SQLUnsupported("'\(op.symbol)' as an ordering")
        }
    }

    /// `qualified` reached with no qualifier: `comparison` sends those to `direct`.
    static func unqualified() -> SQLUnsupported {
        assertionFailure("an unqualified comparison compiled as a qualified one")
        return SQLUnsupported("an unqualified comparison as a qualified one")
    }
}

extension SQLOperand {
    /// Whether a single value may differ from the evaluator's in this way.
    func diverges(_ divergence: SQLFragment.Divergence) -> Bool {
        if case .single(let fragment) = self { return !fragment.divergence.isDisjoint(with: divergence) }
        return false
    }
}
