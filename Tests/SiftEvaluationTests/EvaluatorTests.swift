import Foundation
import Testing
@testable import SiftEvaluation
import SiftLanguage

/// The object most tables evaluate on.
let person = val([
    "name": "Ann", "age": 34, "height": 1.68, "nickname": nil, "title": "Stár Wars", "empty": "",
    "flag": true, "zero": 0, "big": 9_007_199_254_740_993,
    "tags": [["name": "sci-fi"], ["name": "drama"], ["name": nil]],
    "scores": [3, 5, 8], "blank": [Any?](), "words": ["swift", "linux"],
    "address": ["city": "Oslo", "zip": "0150"], "nothing": ["city": nil],
    "items": [["price": 10, "qty": 2], ["price": 2.5, "qty": 4], ["price": nil, "qty": 1]],
    "born": Date(timeIntervalSinceReferenceDate: 86_400),
    "straße": "STRASSE",
    "orders": [["lines": [["sku": "a1", "qty": 1], ["sku": "b2", "qty": 2]], "labels": ["gift", "rush"]],
               ["lines": [["sku": "c3", "qty": 5]], "labels": ["plain"]]],
] as [String: Any?])

@Suite("Evaluator: LANGUAGE.md tables")
struct EvaluatorTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let format: String
        let expected: Bool
        var testDescription: String { "\(format) → \(expected)" }
        init(_ format: String, _ expected: Bool) { self.format = format; self.expected = expected }
    }

    static let comparisons: [Row] = [
        // Numbers across kinds; booleans are numbers; no other coercion.
        Row("age == 34", true), Row("age == 34.0", true), Row("age > 33.5", true), Row("age < 34", false),
        Row("age >= 34 AND age <= 34", true), Row("height > 1", true), Row("flag == YES", true), Row("flag == 1", true),
        Row("zero == NO", true), Row("\"42\" == 42", false), Row("\"42\" != 42", true), Row("age == '34'", false),
        Row("big > 9007199254740992", true), Row("big == 9007199254740992.0", false),
        // Strings: NFC, code-point order.
        Row("name == 'Ann'", true), Row("name == 'ann'", false), Row("name ==[c] 'ANN'", true),
        Row("'B' < 'a'", true), Row("title == 'Sta\u{301}r Wars'", true), Row("title > 'Star Wars'", true), Row("title < 'The Star'", true),
        // nil rules.
        Row("nickname == nil", true), Row("nickname != nil", false), Row("nickname == 5", false), Row("nickname != 5", true),
        Row("nickname < 5", false), Row("nickname > 5", false), Row("nickname BEGINSWITH 'a'", false), Row("nickname LIKE '*'", false),
        Row("nickname MATCHES '.*'", false), Row("NOT (nickname > 5)", true), Row("missing == nil", true), Row("missing.deeper == nil", true),
        Row("nil == nil", true), Row("nil IN {nil, 1}", true), Row("empty == nil", false), Row("empty == ''", true),
        // Ordering across kinds with no common order is false at run time.
        Row("name < 5", false), Row("name > 5", false), Row("born > 5", false),
        // Dates.
        Row("born == CAST(86400, 'NSDate')", true), Row("born > CAST('2001-01-01T00:00:00Z', 'NSDate')", true),
        Row("born < CAST('2001-01-02T00:00:01Z', 'NSDate')", true),
    ]

    static let strings: [Row] = [
        Row("name BEGINSWITH 'A'", true), Row("name BEGINSWITH 'a'", false), Row("name BEGINSWITH[c] 'a'", true),
        Row("name ENDSWITH 'nn'", true), Row("name CONTAINS 'n'", true), Row("name CONTAINS ''", false), Row("name BEGINSWITH ''", false),
        Row("name ENDSWITH ''", false), Row("title BEGINSWITH 'Star'", false), Row("title BEGINSWITH[d] 'Star'", true),
        Row("title BEGINSWITH[cd] 'star'", true), Row("'STRASSE' ==[c] 'straße'", true),
        Row("'Stár' BEGINSWITH[d] 'Star'", true), Row("title ==[n] 'Stár Wars'", true),
        Row("name LIKE 'A*'", true), Row("name LIKE 'a*'", false), Row("name LIKE[c] 'a*'", true), Row("name LIKE '?nn'", true),
        Row("name LIKE 'A?'", false), Row("name LIKE '*'", true), Row("'a*b' LIKE 'a\\\\*b'", true), Row("'axb' LIKE 'a\\\\*b'", false),
        Row("name MATCHES 'A.n'", true), Row("name MATCHES 'n'", false), Row("name MATCHES[c] 'ann'", true), Row("title MATCHES[d] 'Star.*'", true),
        Row("'ar' IN name", false), Row("'nn' IN name", true), Row("name IN[c] {'ann', 'bob'}", true), Row("name IN {'ann', 'bob'}", false),
    ]

    static let collections: [Row] = [
        // Qualifiers.
        Row("ANY tags.name == 'drama'", true), Row("SOME tags.name == 'drama'", true), Row("ALL tags.name == 'drama'", false),
        Row("NONE tags.name == 'western'", true), Row("ANY blank == 1", false), Row("ALL blank == 1", true), Row("NONE blank == 1", true),
        Row("ANY nickname == 1", false), Row("ALL nickname == 1", true), Row("ALL scores > 2", true), Row("ANY scores > 7", true),
        // Implicit ANY over to-many key paths.
        Row("tags.name == 'drama'", true), Row("tags.name != 'drama'", true), Row("NOT tags.name == 'drama'", false),
        Row("NOT tags.name == 'western'", true), Row("tags.name BEGINSWITH 'sci'", true), Row("scores > 7", true), Row("scores > 8", false),
        Row("tags.name == nil", true), Row("blank == 1", false),
        // Key paths across two to-many steps flatten into one collection.
        Row("orders.lines.sku == 'b2'", true), Row("orders.lines.sku.@count == 3", true), Row("ALL orders.lines.qty > 0", true),
        Row("orders.labels == 'gift'", true), Row("orders.labels.@count == 3", true),
        // Membership.
        Row("words CONTAINS 'swift'", true), Row("words CONTAINS 'go'", false), Row("words CONTAINS[c] 'SWIFT'", true),
        Row("'swift' IN words", true), Row("age IN {33, 34}", true), Row("age IN {}", false), Row("'Oslo' IN address", true),
        Row("ANY tags.name IN {'drama', 'x'}", true), Row("tags.name IN {'x', 'y'}", false),
        // BETWEEN.
        Row("age BETWEEN {30, 40}", true), Row("age BETWEEN {34, 34}", true), Row("age BETWEEN {35, 40}", false),
        Row("nickname BETWEEN {1, 2}", false), Row("scores BETWEEN {7, 9}", true),
        // Collection operators.
        Row("tags.@count == 3", true), Row("blank.@count == 0", true), Row("scores.@sum == 16", true), Row("scores.@avg > 5.3", true),
        Row("scores.@min == 3", true), Row("scores.@max == 8", true), Row("blank.@sum == 0", true), Row("blank.@avg == nil", true),
        Row("blank.@min == nil", true), Row("items.@sum.price == 12.5", true), Row("items.@max.qty == 4", true), Row("items.@avg.price == 6.25", true),
        Row("tags.@distinctUnionOfObjects.name[SIZE] == 2", true), Row("nickname.@count == 0", true),
        // Index forms.
        Row("scores[FIRST] == 3", true), Row("scores[LAST] == 8", true), Row("scores[SIZE] == 3", true), Row("scores[1] == 5", true),
        Row("scores[7] == nil", true), Row("address['city'] == 'Oslo'", true), Row("address.city == 'Oslo'", true), Row("nothing.city == nil", true),
        Row("tags[FIRST].name == 'sci-fi'", true), Row("blank[FIRST] == nil", true),
        // SUBQUERY.
        Row("SUBQUERY(items, $i, $i.price > 5).@count == 1", true), Row("SUBQUERY(items, $i, $i.qty >= 2)[SIZE] == 2", true),
        Row("SUBQUERY(items, $i, price == nil).@count == 1", true), Row("SUBQUERY(blank, $i, TRUEPREDICATE).@count == 0", true),
    ]

    static let arithmetic: [Row] = [
        Row("age + 1 == 35", true), Row("age - 35 == -1", true), Row("age * 2 == 68", true), Row("age / 5 == 6", true), Row("-age / 5 == -6", true),
        Row("age / 0 == nil", true), Row("height * 0 == 0", true), Row("age / 4.0 == 8.5", true), Row("2 ** 10 == 1024", true),
        Row("9223372036854775807 + 1 > 9223372036854775807", true), Row("nickname + 1 == nil", true),
        Row("age & 2 == 2", true), Row("age | 1 == 35", true), Row("age ^ 34 == 0", true), Row("1 << 4 == 16", true), Row("-16 >> 2 == -4", true),
        Row("~0 == -1", true), Row("born + 86400 == CAST(172800, 'NSDate')", true), Row("born - 86400 == CAST(0, 'NSDate')", true),
        // Functions.
        Row("sum:(scores) == 16", true), Row("count:(scores) == 3", true), Row("min:(scores) == 3", true), Row("max:(scores) == 8", true),
        Row("average:(scores) > 5.3", true), Row("median:({1, 3, 2, 4}) == 2.5", true), Row("median:(scores) == 5", true), Row("mode:({1, 2, 2, 3, 3}) == 2", true),
        Row("stddev:({2, 4, 4, 4, 5, 5, 7, 9}) == 2", true), Row("add:to:(1, 2) == 3", true), Row("from:subtract:(5, 2) == 3", true),
        Row("multiply:by:(3, 4) == 12", true), Row("divide:by:(7, 2) == 3", true), Row("modulus:by:(-7, 3) == -1", true), Row("modulus:by:(7.5, 2) == 1.5", true),
        Row("modulus:by:(7, 0) == nil", true), Row("raise:toPower:(2, 3) == 8", true), Row("sqrt:(16) == 4", true), Row("log:(100) == 2", true),
        Row("ln:(1) == 0", true), Row("exp:(0) == 1", true), Row("floor:(2.7) == 2", true), Row("ceiling:(2.1) == 3", true), Row("abs:(-3) == 3", true),
        Row("trunc:(-2.7) == -2", true), Row("uppercase:(name) == 'ANN'", true), Row("lowercase:(name) == 'ann'", true), Row("canonical:(title) == 'star wars'", true),
        Row("now() > born", true), Row("random() < 1", true), Row("random:(5) < 5", true), Row("bitwiseAnd:with:(6, 3) == 2", true),
        Row("bitwiseOr:with:(6, 3) == 7", true), Row("bitwiseXor:with:(6, 3) == 5", true), Row("leftshift:by:(1, 3) == 8", true),
        Row("rightshift:by:(8, 3) == 1", true), Row("onesComplement:(0) == -1", true), Row("noindex:(age) == 34", true), Row("sqrt:(nickname) == nil", true),
        Row("FUNCTION(age, 'multiply:by:', 2) == 68", true), Row("FUNCTION(SELF, 'uppercase:', name) == 'ANN'", true),
        // CAST, TERNARY, assignment.
        Row("CAST('42', 'NSNumber') == 42", true), Row("CAST(age, 'NSString') == '34'", true), Row("CAST(nickname, 'NSString') == nil", true),
        Row("CAST('1.5', 'NSNumber') == 1.5", true), Row("TERNARY(age > 30, 'old', 'young') == 'old'", true),
        Row("TERNARY(nickname == nil, 1, 2) == 1", true), Row("($x := age + 1) == 35", true),
        Row("TRUEPREDICATE", true), Row("FALSEPREDICATE", false), Row("NOT FALSEPREDICATE", true),
        Row("SELF.name == 'Ann'", true), Row("SELF == SELF", true),
    ]

    @Test(arguments: comparisons + strings + collections + arithmetic)
    func evaluates(_ row: Row) {
        #expect(holds(row.format, on: person) == row.expected)
    }

    @Test func notIsTwoValued() {
        // NOT is plain negation: NOT (x > 5) holds where x is nil, as x != 5 does.
        for format in ["nickname > 5", "nickname == 5", "nickname BEGINSWITH 'a'", "tags.name == 'western'"] {
            let p = holds(format, on: person)
            #expect(holds("NOT (\(format))", on: person) == p.map { !$0 })
        }
    }

    @Test func variablesBindAtEvaluation() throws {
        let p = try CompiledPredicate(format: "age > $min")
        #expect(try p.evaluate(person, variables: ["min": Value.int(30)]))
        #expect(try !p.evaluate(person, variables: ["min": Value.int(40)]))
        #expect(throws: EvaluationError.self) { try p.evaluate(person) }
        do throws(EvaluationError) {
            _ = try p.evaluate(person)
        } catch {
            #expect(error.code == .unboundVariable)
            #expect(error.message.contains("$min"))
        }
        #expect(try CompiledPredicate(format: "age > $min", arguments: [], variables: ["min": 40]).evaluate(person) == false)
    }

    @Test func errorsThatDoNotDependOnTheDataComeAtCompileTime() {
        let cases: [(String, EvaluationError.Code)] = [
            ("name MATCHES '['", .invalidRegularExpression),
            ("age == 'a' + 1", .typeMismatch),
            ("age == CAST('abc', 'NSNumber')", .invalidCast),
            ("age == ~2.5", .typeMismatch),
            ("'a' < 1", .typeMismatch),
            ("FUNCTION(age, 'frobnicate:', 2) == 1", .unsupported),
            ("name UTI-EQUALS 'public.text'", .unsupported),
        ]
        for (format, code) in cases {
            do {
                _ = try CompiledPredicate(format: format)
                Issue.record("\(format) compiled")
            } catch let error as EvaluationError {
                #expect(error.code == code, "\(format): \(error)")
            } catch {
                Issue.record("\(format): \(error)")
            }
        }
    }

    @Test func runTimeErrorsNameTheKeyPathAndKinds() throws {
        let p = try CompiledPredicate(format: "name + 1 == 2")
        do throws(EvaluationError) {
            _ = try p.evaluate(person)
            Issue.record("no error")
        } catch {
            #expect(error.code == .typeMismatch)
            #expect(error.message.contains("string and integer"))
            #expect(error.message.contains("name + 1"))
        }
    }

    @Test func filterKeepsOrder() throws {
        let people = (0..<10).map { val(["n": $0] as [String: Any?]) }
        let odd = try CompiledPredicate(format: "modulus:by:(n, 2) == 1").filter(people)
        #expect(odd.count == 5)
        #expect(try odd.map { try CompiledExpression(format: "n").evaluate($0) }.map(ValueText.text) == ["1", "3", "5", "7", "9"])
    }

    @Test func oneCompiledPredicateFromManyThreads() throws {
        let p = try CompiledPredicate(format: "ANY tags.name BEGINSWITH[cd] 'DRA' AND name MATCHES 'A.*' AND age BETWEEN {30, 40}")
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 where (try? p.evaluate(person)) != true { failures.add() }
        }
        #expect(failures.count == 0)
    }
}

final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.lock(); value += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
}
