import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// The generated differential test of LANGUAGE.md §3's typed rule (issue 28 §1): for every
/// construct a comparison can be written in — top level; ANY, ALL, NONE; a SUBQUERY variable,
/// a bare key in SUBQUERY, a to-one path from a SUBQUERY variable, a nested SUBQUERY; TERNARY;
/// `$variables` and `%@`; `@max`/`@min`/`@sum`/`@avg` and `max:`; HAVING on a SELECT alias and
/// SORT BY it — and every atom (a Date attribute or a number against a constant, with `==`,
/// `!=`, `<`, `<=`, `>`, `>=`, BETWEEN, IN), the nested form's answer is computed from the
/// top-level facts (which invoices the same comparison holds for, read as dates), and every
/// store must give it: with the constant written as a string and as `CAST(…, "NSDate")` alike.
///
/// The stores hold the same objects (a Chinook-shaped database's); `memory` is an atomic
/// store, whose evaluator defines the semantics, and the facts are read from it.
public enum TypedComparisonDifferential {
    /// One comparison: `key op constant` on an Invoice (`InvoiceDate >= "2024-01-01"`).
    public struct Atom: Sendable, CustomStringConvertible {
        public let key: String
        public let op: String
        /// The constants (two for BETWEEN, several for IN, else one): dates or doubles.
        public let values: [Value]
        /// Whether the atom compares dates (its constants are written as strings).
        public var isDate: Bool { key == "InvoiceDate" }

        /// The constant as written: `"2021-01-09"`, `{"a", "b"}`, `5.94`; with `cast`, dates as
        /// `CAST("…", "NSDate")`.
        public func constant(cast: Bool) -> String {
            let written = values.map { value -> String in
                switch value {
                case .date(let date):
                    let text = ISO8601.string(from: date)
                    if cast { return "CAST(\"\(text)\", \"NSDate\")" }
                    // Midnight written as a day alone, as users write dates.
                    return text.hasSuffix("T00:00:00Z") ? "\"\(text.prefix(10))\"" : "\"\(text)\""
                case .double(let d): return "\(d)"
                case .decimal(let d): return "\(d)"
                default: return "\(value)"
                }
            }
            return op == "BETWEEN" || op == "IN" ? "{\(written.joined(separator: ", "))}" : written[0]
        }

        /// The constant as a `$variable`'s value (`--var k='"2021-01-09"'`): a string or strings.
        public var variableValue: Any {
            let texts: [Any] = values.map { value -> Any in
                if case .date(let date) = value { return ISO8601.string(from: date) }
                if case .double(let d) = value { return d }
                if case .decimal(let d) = value { return d }
                return "\(value)"
            }
            return op == "BETWEEN" || op == "IN" ? texts : texts[0]
        }

        /// Whether the comparison holds for a value (nil: the evaluator's nil rules).
        public func holds(_ value: Value?) -> Bool {
            guard let value, !value.isNull else { return op == "!=" }
            func order(_ a: Value, _ b: Value) -> Int? {
                if case .date(let x) = a, case .date(let y) = b { return x < y ? -1 : (x == y ? 0 : 1) }
                guard let x = TypedComparisonDifferential.number(a), let y = TypedComparisonDifferential.number(b) else { return nil }
                return x < y ? -1 : (x == y ? 0 : 1)
            }
            let o = order(value, values[0])
            switch op {
            case "==": return o == 0
            case "!=": return o != 0
            case "<": return o.map { $0 < 0 } ?? false
            case "<=": return o.map { $0 <= 0 } ?? false
            case ">": return o.map { $0 > 0 } ?? false
            case ">=": return o.map { $0 >= 0 } ?? false
            case "BETWEEN":
                guard let low = order(value, values[0]), let high = order(value, values[1]) else { return false }
                return low >= 0 && high <= 0
            case "IN": return values.contains { order(value, $0) == 0 }
            default: return false
            }
        }

        public var description: String { "\(key) \(op) \(constant(cast: false))" }
    }

    /// What the tests know of the objects, read from the in-memory store.
    public struct Facts: Sendable {
        struct Invoice: Sendable { let id: String; let date: Value; let total: Value; let customer: String?; let lines: Int; let country: String }
        let invoices: [Invoice]
        /// Each customer's invoices, in the store's order.
        let customers: [(id: String, invoices: [String])]
        let employees: [(id: String, customers: [String])]

        public init(_ store: any PersistentStore) throws {
            invoices = try store.fetch(FetchRequest(entityName: "Invoice")).map { object in
                var country = ""
                if case .string(let text)? = object[attribute: "BillingCountry"] { country = text }
                return Invoice(id: object.objectID.rawValue, date: object[attribute: "InvoiceDate"] ?? .null,
                               total: object[attribute: "Total"] ?? .null, customer: object.destinationIDs(of: "Customer").first?.rawValue,
                               lines: object.destinationCount(of: "invoicelines"), country: country)
            }
            customers = try store.fetch(FetchRequest(entityName: "Customer")).map { ($0.objectID.rawValue, $0.destinationIDs(of: "invoices").map(\.rawValue)) }
            employees = try store.fetch(FetchRequest(entityName: "Employee")).map { ($0.objectID.rawValue, $0.destinationIDs(of: "customers").map(\.rawValue)) }
        }

        func value(_ invoice: Invoice, _ key: String) -> Value { key == "InvoiceDate" ? invoice.date : invoice.total }
    }

    /// The atoms: dates taken from the data (so `==` and IN match some invoices) and a day
    /// between invoices, and totals likewise.
    public static func atoms(_ facts: Facts) -> [Atom] {
        let dates = facts.invoices.map(\.date)
        let totals = facts.invoices.map(\.total)
        guard dates.count > 300 else { return [] }
        let someDate = dates[205], early = dates[9], late = dates[380]
        let between = Value.date(ISO8601.date(from: "2023-06-15T12:00:00Z") ?? Date())
        var atoms: [Atom] = []
        for op in ["==", "!=", "<", "<=", ">", ">="] {
            for value in [someDate, between] { atoms.append(Atom(key: "InvoiceDate", op: op, values: [value])) }
        }
        atoms.append(Atom(key: "InvoiceDate", op: "BETWEEN", values: [early, someDate]))
        atoms.append(Atom(key: "InvoiceDate", op: "IN", values: [early, someDate, late]))
        for op in ["==", "!=", "<", ">="] { atoms.append(Atom(key: "Total", op: op, values: [totals[3]])) }
        atoms.append(Atom(key: "Total", op: "BETWEEN", values: [.double(5.0), .double(10.0)]))
        atoms.append(Atom(key: "Total", op: "IN", values: [totals[3], totals[100]]))
        return atoms
    }

    /// A construct: the statement it writes an atom in (`K` the constant), how the statement
    /// binds it, and its answer from the facts.
    public struct Construct: Sendable {
        public enum Binding: Sendable { case literal, variable, argument }
        public let name: String
        let template: @Sendable (Atom) -> String?
        let binding: Binding
        /// The object IDs the statement fetches (or, for SELECT, the rows' first values in order).
        let answer: @Sendable (Atom, Facts) -> [String]?
    }

    /// Every construct.
    public static let constructs: [Construct] = {
        let c = "K"
        return [
            Construct(name: "top level", template: { "Invoice WHERE \($0.key) \($0.op) \(c)" }, binding: .literal) { atom, facts in
                ids(matching(atom, facts))
            },
            Construct(name: "ANY", template: { "Customer WHERE ANY invoices.\($0.key) \($0.op) \(c)" }, binding: .literal) { atom, facts in
                let s = matching(atom, facts)
                return customers(facts) { $0.contains(where: s.contains) }
            },
            Construct(name: "ALL", template: { "Customer WHERE ALL invoices.\($0.key) \($0.op) \(c)" }, binding: .literal) { atom, facts in
                let s = matching(atom, facts)
                return customers(facts) { $0.allSatisfy(s.contains) }
            },
            Construct(name: "NONE", template: { "Customer WHERE NONE invoices.\($0.key) \($0.op) \(c)" }, binding: .literal) { atom, facts in
                let s = matching(atom, facts)
                return customers(facts) { !$0.contains(where: s.contains) }
            },
            Construct(name: "SUBQUERY variable", template: { "Customer WHERE SUBQUERY(invoices, $i, $i.\($0.key) \($0.op) \(c)).@count > 0" },
                      binding: .literal) { atom, facts in
                let s = matching(atom, facts)
                return customers(facts) { $0.contains(where: s.contains) }
            },
            Construct(name: "SUBQUERY bare key", template: { "Customer WHERE SUBQUERY(invoices, $i, \($0.key) \($0.op) \(c)).@count >= 2" },
                      binding: .literal) { atom, facts in
                let s = matching(atom, facts)
                return customers(facts) { $0.filter(s.contains).count >= 2 }
            },
            Construct(name: "SUBQUERY variable through a to-one",
                      template: { "Invoice WHERE SUBQUERY(invoicelines, $l, $l.Invoice.\($0.key) \($0.op) \(c)).@count > 0" },
                      binding: .literal) { atom, facts in
                let s = matching(atom, facts), count = lines(facts)
                return ids(s.filter { (count[$0] ?? 0) > 0 })
            },
            Construct(name: "nested SUBQUERY",
                      template: { "Customer WHERE SUBQUERY(invoices, $i, SUBQUERY($i.invoicelines, $l, $l.Invoice.\($0.key) \($0.op) \(c)).@count > 0).@count > 0" },
                      binding: .literal) { atom, facts in
                let s = matching(atom, facts), count = lines(facts)
                return customers(facts) { $0.contains { s.contains($0) && (count[$0] ?? 0) > 0 } }
            },
            Construct(name: "ANY in SUBQUERY", template: { "Employee WHERE SUBQUERY(customers, $c, ANY $c.invoices.\($0.key) \($0.op) \(c)).@count > 0" },
                      binding: .literal) { atom, facts in
                let s = matching(atom, facts)
                let owners = Set(facts.customers.filter { $0.invoices.contains(where: s.contains) }.map(\.id))
                return ids(facts.employees.filter { $0.customers.contains(where: owners.contains) }.map(\.id))
            },
            Construct(name: "TERNARY", template: { "Invoice WHERE TERNARY(\($0.key) \($0.op) \(c), 1, 0) == 1" }, binding: .literal) { atom, facts in
                ids(matching(atom, facts))
            },
            Construct(name: "TERNARY in SUBQUERY",
                      template: { "Customer WHERE SUBQUERY(invoices, $i, TERNARY($i.\($0.key) \($0.op) \(c), YES, NO) == YES).@count > 0" },
                      binding: .literal) { atom, facts in
                let s = matching(atom, facts)
                return customers(facts) { $0.contains(where: s.contains) }
            },
            Construct(name: "variable", template: { "Invoice WHERE \($0.key) \($0.op) $k" }, binding: .variable) { atom, facts in
                ids(matching(atom, facts))
            },
            Construct(name: "variable in SUBQUERY", template: { "Customer WHERE SUBQUERY(invoices, $i, $i.\($0.key) \($0.op) $k).@count > 0" },
                      binding: .variable) { atom, facts in
                let s = matching(atom, facts)
                return customers(facts) { $0.contains(where: s.contains) }
            },
            Construct(name: "argument", template: { "Invoice WHERE \($0.key) \($0.op) %@" }, binding: .argument) { atom, facts in
                ids(matching(atom, facts))
            },
            Construct(name: "@max", template: { "Customer WHERE invoices.@max.\($0.key) \($0.op) \(c)" }, binding: .literal) { atom, facts in
                customers(facts) { atom.holds(extreme(atom, facts, $0, max: true)) }
            },
            Construct(name: "@min", template: { "Customer WHERE invoices.@min.\($0.key) \($0.op) \(c)" }, binding: .literal) { atom, facts in
                customers(facts) { atom.holds(extreme(atom, facts, $0, max: false)) }
            },
            Construct(name: "max: function", template: { "Customer WHERE max:(invoices.\($0.key)) \($0.op) \(c)" }, binding: .literal) { atom, facts in
                customers(facts) { atom.holds(extreme(atom, facts, $0, max: true)) }
            },
            Construct(name: "@max in SUBQUERY",
                      template: { "Employee WHERE SUBQUERY(customers, $c, $c.invoices.@max.\($0.key) \($0.op) \(c)).@count > 0" },
                      binding: .literal) { atom, facts in
                let owners = Set(facts.customers.filter { atom.holds(extreme(atom, facts, $0.invoices, max: true)) }.map(\.id))
                return ids(facts.employees.filter { $0.customers.contains(where: owners.contains) }.map(\.id))
            },
            // A mean or sum of dates is no date (always nil, always 0): no customer matches but
            // with `!=`, whatever the constant.
            Construct(name: "@avg of dates", template: { $0.isDate ? "Customer WHERE invoices.@avg.\($0.key) \($0.op) \(c)" : nil },
                      binding: .literal) { atom, facts in
                atom.op == "!=" ? customers(facts) { _ in true } : []
            },
            Construct(name: "@sum of dates", template: { $0.isDate ? "Customer WHERE invoices.@sum.\($0.key) \($0.op) \(c)" : nil },
                      binding: .literal) { atom, facts in
                atom.op == "!=" ? customers(facts) { _ in true } : []
            },
            Construct(name: "HAVING on a max: alias, SORT BY it",
                      template: { "SELECT BillingCountry AS country, max:(\($0.key)) AS v FROM Invoice GROUP BY BillingCountry HAVING v \($0.op) \(c) SORT BY v DESC, country" },
                      binding: .literal) { atom, facts in
                var countries: [String: [String]] = [:]
                for invoice in facts.invoices { countries[invoice.country, default: []].append(invoice.id) }
                return countries.filter { atom.holds(extreme(atom, facts, $0.value, max: true)) }.keys.sorted()
            },
            Construct(name: "HAVING on a min: alias",
                      template: { "SELECT BillingCountry AS country, min:(\($0.key)) AS v FROM Invoice GROUP BY BillingCountry HAVING v \($0.op) \(c)" },
                      binding: .literal) { atom, facts in
                var countries: [String: [String]] = [:]
                for invoice in facts.invoices { countries[invoice.country, default: []].append(invoice.id) }
                return countries.filter { atom.holds(extreme(atom, facts, $0.value, max: false)) }.keys.sorted()
            },
        ]
    }()

    // MARK: Answers from the facts

    static func ids<S: Sequence>(_ ids: S) -> [String] where S.Element == String { Array(ids).sorted() }

    /// The invoices the atom holds for (the top-level comparison's answer).
    static func matching(_ atom: Atom, _ facts: Facts) -> Set<String> {
        Set(facts.invoices.filter { atom.holds(facts.value($0, atom.key)) }.map(\.id))
    }
    static func customers(_ facts: Facts, _ test: ([String]) -> Bool) -> [String] {
        ids(facts.customers.filter { test($0.invoices) }.map(\.id))
    }
    static func extreme(_ atom: Atom, _ facts: Facts, _ invoices: [String], max: Bool) -> Value? {
        let byID = Dictionary(uniqueKeysWithValues: facts.invoices.map { ($0.id, $0) })
        let values = invoices.compactMap { byID[$0].map { facts.value($0, atom.key) } }.filter { !$0.isNull }
        return max ? values.max(by: less) : values.min(by: less)
    }

    static func less(_ a: Value, _ b: Value) -> Bool {
        if case .date(let x) = a, case .date(let y) = b { return x < y }
        return (number(a) ?? 0) < (number(b) ?? 0)
    }

    static func lines(_ facts: Facts) -> [String: Int] { Dictionary(uniqueKeysWithValues: facts.invoices.map { ($0.id, $0.lines) }) }

    /// Runs every construct with every atom on every store; returns what disagreed (empty
    /// when all agree), and how many statements ran.
    public static func run(stores: [(name: String, store: any PersistentStore)], memory: any PersistentStore) throws -> (mismatches: [String], checked: Int) {
        let facts = try Facts(memory)
        var mismatches: [String] = []
        var checked = 0
        for construct in constructs {
            var answers: Set<Int> = []
            for atom in atoms(facts) {
                guard let template = construct.template(atom), let expected = construct.answer(atom, facts) else { continue }
                answers.insert(expected.count)
                var forms = [(atom.constant(cast: false), "string")]
                if atom.isDate, construct.binding == .literal { forms.append((atom.constant(cast: true), "CAST")) }
                for (constant, form) in forms {
                    let statement = template.replacingOccurrences(of: "K", with: constant)
                    for (name, store) in stores {
                        checked += 1
                        let outcome: String
                        do {
                            let request = try self.request(statement, construct.binding, atom)
                            let got = try answer(request, store)
                            // A sorted result is in the memory store's order too.
                            var sameOrder = true
                            if statement.contains("SORT BY"), store !== memory {
                                sameOrder = try ordered(request, store) == ordered(request, memory)
                            }
                            if got == expected, sameOrder { continue }
                            outcome = "\(got.count) \(got.prefix(6))"
                        } catch {
                            outcome = "error: \(error)"
                        }
                        mismatches.append("\(construct.name) [\(form)] on \(name): \(statement): \(outcome), expected \(expected.count) \(expected.prefix(6))")
                    }
                }
            }
            // Each construct's answers vary with the atom, so a broken rule cannot pass unseen
            // (the means and sums of dates are constant by design).
            if answers.count < 2, !construct.name.contains("of dates") {
                mismatches.append("\(construct.name): every atom gives \(answers.first ?? 0) results")
            }
        }
        return (mismatches, checked)
    }

    /// A number as a double (integers, doubles, decimals), for the facts' comparisons.
    static func number(_ value: Value) -> Double? {
        switch value {
        case .int(let i): Double(i)
        case .double(let d): d
        case .decimal(let d): NSDecimalNumber(decimal: d).doubleValue
        default: nil
        }
    }

    /// The entities the differential reads (the others stay empty in the copies).
    public static let entities: Set<String> = ["Employee", "Customer", "Invoice", "InvoiceLine"]

    static func request(_ statement: String, _ binding: Construct.Binding, _ atom: Atom) throws -> FetchRequest {
        switch binding {
        case .literal: return try FetchRequest(statement: statement)
        case .variable: return try FetchRequest(statement: statement, variables: ["k": atom.variableValue])
        case .argument: return try FetchRequest(statement: statement, arguments: [atom.variableValue])
        }
    }

    /// A SELECT's rows' values, in the rows' order.
    static func ordered(_ request: FetchRequest, _ store: any PersistentStore) throws -> [String] {
        guard case .dictionaries(let rows) = try store.execute(request) else { return [] }
        return rows.map { "\($0.values)" }
    }

    /// The fetched objects' IDs, sorted; for SELECT, the rows' first values, in the rows' order
    /// where the statement sorts (else sorted).
    static func answer(_ request: FetchRequest, _ store: any PersistentStore) throws -> [String] {
        guard request.resultType == .dictionaries else {
            return try store.fetch(request).objectIDs.map(\.rawValue).sorted()
        }
        guard case .dictionaries(let rows) = try store.execute(request) else { return [] }
        let first = rows.map { row -> String in
            if case .string(let text)? = row.values.first { return text }
            return "\(row.values.first ?? .null)"
        }
        // The sorted statements are compared in their order with the memory store's elsewhere;
        // here as sets of groups.
        return first.sorted()
    }
}
