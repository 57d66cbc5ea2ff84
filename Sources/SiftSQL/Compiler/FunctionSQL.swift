import SiftEvaluation
import SiftLanguage

/// Functions of LANGUAGE.md §6 and `FUNCTION(receiver, 'selector:', …)`, compiled so that SQL
/// computes exactly the evaluator's value:
///
/// - `noindex:(x)` is `x`; `add:to:`, `from:subtract:`, `multiply:by:`, `divide:by:`,
///   `raise:toPower:`, the bitwise functions and `onesComplement:` are their operators
///   (``arithmetic(_:_:_:)``, ``unary(_:_:)``);
/// - `sum: count: min: max: average: median: mode: stddev:` of a to-many key path are
///   subqueries over its elements: `(SELECT sift_group_sum("t1"."weight", "t1"."_pk") FROM … WHERE <link>)`;
/// - every other function is the evaluator's own implementation registered in SQLite:
///   `sift_call(?selector, ?kinds, x, …)`, `kinds` saying what each argument is
///   (``SQLArgumentKind``: `'s'` text, `'i'` integer, `'d'` a date's seconds, …).
///
/// A call is compiled only when its arguments' kinds make an evaluator error impossible
/// (`uppercase:` of text, `abs:` of a number): SQLite evaluates in no set order, so a call that
/// could throw is left to the evaluator, which throws where it would. `now`, `random` and
/// `random:` depend on more than their arguments (the evaluator calls them for each object)
/// and stay in memory too.
extension ExpressionSQLCompiler {
    /// `selector(arguments…)`.
    func function(_ selector: String, _ arguments: [ExpressionNode], in scope: SQLScope) throws -> SQLFragment {
        guard let function = BuiltinFunction(selector: selector) else { throw SQLUnsupported("the function \(selector)") }
        return try self.function(function, arguments, in: scope)
    }

    /// `function(arguments…)`: each function of the catalogue in its own case, those with no SQL
    /// form saying why.
    func function(_ function: BuiltinFunction, _ arguments: [ExpressionNode], in scope: SQLScope) throws -> SQLFragment {
        let selector = function.selector
        /// Of the arguments' values: every function but the aggregates is nil when an argument is.
        func scalar(_ compile: ([SQLFragment]) throws -> SQLFragment) throws -> SQLFragment {
            let values = try arguments.map { try value($0, in: scope) }
            if values.contains(where: { $0.kind == .null }) { return SQLFragment(expression: .null, kind: .null, nullable: true) }
            guard values.count == function.arity else { throw SQLUnsupported("the function \(selector)") }
            return try compile(values)
        }
        func aggregate(_ aggregate: CollectionAggregate) throws -> SQLFragment {
            guard arguments.count == 1 else { throw SQLUnsupported("\(selector) with \(arguments.count) arguments") }
            return try aggregateFunction(aggregate, selector, of: arguments[0], in: scope)
        }
        switch function {
        case .now, .random, .randomBelow:
            throw SQLUnsupported("\(selector) depends on more than its arguments")
        case .count: return try aggregate(.count)
        case .sum: return try aggregate(.sum)
        case .average: return try aggregate(.average)
        case .min: return try aggregate(.min)
        case .max: return try aggregate(.max)
        case .median: return try aggregate(.median)
        case .stddev: return try aggregate(.standardDeviation)
        case .mode: return try aggregate(.mode)
        case .add: return try scalar { try arithmetic(.add, $0[0], $0[1]) }
        case .subtract: return try scalar { try arithmetic(.subtract, $0[0], $0[1]) }
        case .multiply: return try scalar { try arithmetic(.multiply, $0[0], $0[1]) }
        case .divide: return try scalar { try arithmetic(.divide, $0[0], $0[1]) }
        case .raise: return try scalar { try arithmetic(.power, $0[0], $0[1]) }
        case .bitwiseAnd: return try scalar { try arithmetic(.bitwiseAnd, $0[0], $0[1]) }
        case .bitwiseOr: return try scalar { try arithmetic(.bitwiseOr, $0[0], $0[1]) }
        case .bitwiseXor: return try scalar { try arithmetic(.bitwiseXor, $0[0], $0[1]) }
        case .leftShift: return try scalar { try arithmetic(.leftShift, $0[0], $0[1]) }
        case .rightShift: return try scalar { try arithmetic(.rightShift, $0[0], $0[1]) }
        case .modulus: return try scalar { try modulus($0[0], $0[1]) }
        case .noindex: return try scalar { $0[0] }
        case .onesComplement: return try scalar { try unary(.bitwiseNot, $0[0]) }
        case .uppercase: return try scalar { try caseMapping(.uppercase, $0[0]) }
        case .lowercase: return try scalar { try caseMapping(.lowercase, $0[0]) }
        case .canonical: return try scalar { try caseMapping(.canonical, $0[0]) }
        case .floor: return try scalar { try numeric(.floor, $0[0], argument: arguments[0]) }
        case .ceiling: return try scalar { try numeric(.ceiling, $0[0], argument: arguments[0]) }
        case .trunc: return try scalar { try numeric(.trunc, $0[0], argument: arguments[0]) }
        case .abs: return try scalar { try numeric(.abs, $0[0], argument: arguments[0]) }
        case .sqrt: return try scalar { try numeric(.sqrt, $0[0], argument: arguments[0]) }
        case .log: return try scalar { try numeric(.log, $0[0], argument: arguments[0]) }
        case .ln: return try scalar { try numeric(.ln, $0[0], argument: arguments[0]) }
        case .exp: return try scalar { try numeric(.exp, $0[0], argument: arguments[0]) }
        }
    }

    /// `FUNCTION(receiver, 'selector:', arguments…)`: as the evaluator applies it, the selector on
    /// the receiver and the arguments, or on the arguments alone when they are all it takes.
    func functionExpression(_ receiver: ExpressionNode, _ selector: String, _ arguments: [ExpressionNode], in scope: SQLScope) throws -> SQLFragment {
        guard let function = BuiltinFunction(selector: selector) else {
            throw SQLUnsupported("FUNCTION selector '\(selector)'")
        }
        if function.arity == arguments.count + 1 { return try self.function(function, [receiver] + arguments, in: scope) }
        if function.arity == arguments.count { return try self.function(function, arguments, in: scope) }
        throw SQLUnsupported("FUNCTION selector '\(selector)' with \(arguments.count) arguments")
    }

    /// `sift_call(?selector, ?kinds, arguments…)`: the evaluator's implementation of `selector`,
    /// giving a value of `kind`.
    func call(_ function: BuiltinFunction, _ arguments: [SQLFragment], kind: SQLKind, nullable: Bool,
              divergence: SQLFragment.Divergence = []) throws -> SQLFragment {
        let selector = function.selector
        guard context.dialect.hasSiftFunctions else { throw SQLUnsupported("\(context.dialect.name) has no \(selector)") }
        var kinds = ""
        var values: [SQLExpression] = []
        for argument in arguments {
            guard let letter = SQLArgumentKind(argument.kind) else { throw SQLUnsupported("\(selector) of \(argument.kind)") }
            kinds.append(letter.rawValue)
            values.append(try materialised(argument).expression)
        }
        let call = SQLExpression.function(.provided(.registered(.call)), [context.bind(.text(selector)), context.bind(.text(kinds))] + values)
        return SQLFragment(expression: call, kind: kind, nullable: nullable, divergence: divergence)
    }

    // MARK: The families

    /// A function of text compiled by ``caseMapping(_:_:)``.
    enum TextMapping {
        case uppercase, lowercase, canonical

        var function: BuiltinFunction {
            switch self {
            case .uppercase: .uppercase
            case .lowercase: .lowercase
            case .canonical: .canonical
            }
        }
    }

    /// A function of a number compiled by ``numeric(_:_:argument:)``.
    enum NumericFunction {
        case floor, ceiling, trunc, abs, sqrt, log, ln, exp

        var function: BuiltinFunction {
            switch self {
            case .floor: .floor
            case .ceiling: .ceiling
            case .trunc: .trunc
            case .abs: .abs
            case .sqrt: .sqrt
            case .log: .log
            case .ln: .ln
            case .exp: .exp
            }
        }
    }

    /// `uppercase:`, `lowercase:`, `canonical:` of text (anything else is the evaluator's error).
    /// A case mapping of NFC text need not be NFC: SQL holds the NFC form
    /// (``SQLFragment/Divergence/textIsNFC``), so neither `[n]` nor a second mapping is compiled.
    /// In PostgreSQL they are the store's text functions (``SQLTextFunctions``).
    private func caseMapping(_ mapping: TextMapping, _ x: SQLFragment) throws -> SQLFragment {
        let selector = mapping.function.selector
        guard x.kind == .string else { throw SQLUnsupported("\(selector) of \(x.kind)") }
        if context.dialect.hasTextFunctions {
            // `canonical:` is the [cd] fold, the same for every canonically equivalent text.
            if mapping == .canonical {
                return SQLFragment(expression: .function(.provided(.text(.foldCaseAndDiacritics)), [try materialised(x).expression]),
                                   kind: .string, nullable: x.nullable)
            }
            guard !x.divergence.contains(.textIsNFC) else { throw SQLUnsupported("\(selector) of a case-mapped string") }
            let function: SQLTextFunction = mapping == .uppercase ? .uppercase : .lowercase
            return SQLFragment(expression: .function(.provided(.text(function)), [try materialised(x).expression]), kind: .string, nullable: x.nullable, divergence: .textIsNFC)
        }
        guard !x.divergence.contains(.textIsNFC) else { throw SQLUnsupported("\(selector) of a case-mapped string") }
        return try call(mapping.function, [x], kind: .string, nullable: x.nullable, divergence: mapping == .canonical ? [] : .textIsNFC)
    }

    /// `abs: floor: ceiling: trunc:` keep integers integers (`abs:` of the least integer gives a
    /// double); `sqrt: log: ln: exp:` give doubles, NaN for a negative argument of the first
    /// three (unless it is `abs:`, `sqrt:` or `exp:` of something, never negative).
    private func numeric(_ numeric: NumericFunction, _ x: SQLFragment, argument: ExpressionNode) throws -> SQLFragment {
        let selector = numeric.function.selector
        // (Of a decimal, the evaluator's functions are of its double.)
        if let double = decimalAsDouble(x) { return try self.numeric(numeric, double, argument: argument) }
        guard case .number(let n) = x.kind, n != .decimal else { throw SQLUnsupported("\(selector) of \(x.kind)") }
        if !context.dialect.hasSiftFunctions, let plain = try plainNumeric(numeric, x, kind: n) { return plain }
        let kind: SQLKind.NumberKind
        var divergence = x.divergence
        switch numeric {
        case .floor, .ceiling, .trunc:
            kind = n == .boolean ? .integer : n
        case .abs:
            kind = n == .boolean ? .integer : n == .integer ? .mixed : n
        case .exp:
            kind = .real
        case .sqrt, .log, .ln:
            kind = .real
            if case .function(let inner, _) = argument.kind, [.abs, .sqrt, .exp].contains(BuiltinFunction(selector: inner)) {} else { divergence.insert(.nanIsNull) }
        }
        return try call(numeric.function, [x], kind: .number(kind), nullable: x.nullable || divergence.contains(.nanIsNull), divergence: divergence)
    }

    /// `abs: floor: ceiling: trunc: sqrt:` in plain SQL, for a dialect without Sift's functions
    /// (PostgreSQL): the rounding functions are the integer itself or the double's
    /// `floor`/`ceil`/`trunc`, `abs` and `sqrt` are correctly rounded as the evaluator's are;
    /// `abs` of the least integer and `sqrt` of a negative number are errors there (the fetch
    /// then runs in memory, where they are a double and NaN). `log: ln: exp:` are the server's C
    /// library's, which computes them as the evaluator's does (glibc and musl share one
    /// implementation).
    private func plainNumeric(_ numeric: NumericFunction, _ x: SQLFragment, kind n: SQLKind.NumberKind) throws -> SQLFragment? {
        let integer = n == .integer || n == .boolean
        let value = try materialised(x)
        /// `name(x)`; of a value that may be NaN, computed with NaN kept (the server's functions
        /// give NaN for NaN, as the C library's do), then NaN read as NULL (``SQLFragment/withNaN``).
        func applied(_ name: SQLStandardFunction, cast: Bool = false, kind: SQLKind.NumberKind) -> SQLFragment {
            func call(_ argument: SQLExpression) -> SQLExpression { .function(.standard(name), [cast ? .cast(argument, "double precision") : argument]) }
            if context.dialect.holdsNaN, x.divergence.contains(.nanIsNull), let kept = value.withNaN {
                return SQLFragment(expression: nanAsNull(call(kept)), kind: .number(kind), nullable: true, divergence: x.divergence)
            }
            return SQLFragment(expression: call(value.expression), kind: .number(kind), nullable: x.nullable, divergence: x.divergence)
        }
        switch numeric {
        case .floor, .ceiling, .trunc:
            if integer { return SQLFragment(expression: value.expression, kind: .number(.integer), nullable: x.nullable, divergence: x.divergence) }
            guard n == .real else { return nil }
            return applied(numeric == .floor ? .floor : numeric == .ceiling ? .ceil : .trunc, kind: .real)
        case .abs:
            guard integer || n == .real else { return nil }
            return applied(.abs, kind: integer ? .integer : .real)
        case .sqrt:
            guard integer || n == .real else { return nil }
            return applied(.sqrt, cast: true, kind: .real)
        case .log, .ln, .exp:
            // The C library's log10, log and exp, as the evaluator's; where they would give NaN
            // or overflow (a negative or zero argument, a result out of range), PostgreSQL raises
            // an error and the fetch runs in memory.
            guard integer || n == .real else { return nil }
            return applied(numeric == .log ? .log : numeric == .ln ? .ln : .exp, cast: true, kind: .real)
        }
    }

    /// `modulus:by:`: an integer of two integers (nil for a zero divisor), else `fmod`'s double
    /// (NaN for an infinite dividend); of two integers in plain SQL where Sift's functions are
    /// not there (PostgreSQL has no `fmod` of doubles).
    private func modulus(_ x: SQLFragment, _ y: SQLFragment) throws -> SQLFragment {
        guard case .number(let m) = x.kind, case .number(let n) = y.kind, m != .decimal, n != .decimal else {
            throw SQLUnsupported("\(BuiltinFunction.modulus.selector) of \(x.kind) and \(y.kind)")
        }
        let kind: SQLKind.NumberKind = x.kind.isInteger && y.kind.isInteger ? .integer : (m == .real || n == .real ? .real : .mixed)
        if !context.dialect.hasSiftFunctions, kind == .integer {
            // `x % nullif(y, 0)`: PostgreSQL's remainder has the dividend's sign as Swift's, and
            // gives 0 for the least integer by -1, as the evaluator does on overflow.
            let a = try materialised(x), b = try materialised(y)
            return SQLFragment(expression: .binary(.remainder, a.expression, .function(.standard(.nullif), [b.expression, .integer(0)])),
                               kind: .number(.integer), nullable: true, divergence: x.divergence.union(y.divergence))
        }
        var divergence = x.divergence.union(y.divergence)
        if Self.mayBeInfinite(x) { divergence.insert(.nanIsNull) }
        return try call(.modulus, [x, y], kind: .number(kind), nullable: true, divergence: divergence)
    }

    /// Whether a number (or date) may be infinite: a constant says, a computed or stored
    /// integer never is, anything else may be.
    static func mayBeInfinite(_ x: SQLFragment) -> Bool {
        if let value = x.constant {
            if case .double(let d) = value { return !d.isFinite }
            if case .date(let d) = value { return !d.timeIntervalSinceReferenceDate.isFinite }
            return false
        }
        return !x.kind.isInteger
    }

    /// Whether a number may be zero (a constant says; anything else may be).
    static func mayBeZero(_ x: SQLFragment) -> Bool {
        guard let value = x.constant else { return true }
        return ValueComparison.equals(value, .int(0))
    }

    // MARK: Aggregates

    /// `count: sum: average: min: max: median: stddev: mode:` of a to-many key path: the
    /// collection's aggregate (``collectionAggregate(_:of:name:)``), as `@count`, `@sum`, … of it.
    private func aggregateFunction(_ aggregate: CollectionAggregate, _ selector: String, of argument: ExpressionNode, in scope: SQLScope) throws -> SQLFragment {
        guard case .collection(let path) = try operand(argument, in: scope) else {
            throw SQLUnsupported("\(selector) of something other than a to-many key path")
        }
        return try collectionAggregate(aggregate, of: path, name: selector)
    }
}
