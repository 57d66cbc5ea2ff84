import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// Integer 64 values a double cannot hold, against doubles (issue 29 §2), on data made to catch
/// a comparison that converts the integer to a double (shared by the SQLite and PostgreSQL
/// tests): the evaluator compares an integer with a double exactly
/// (`ValueComparison.compareIntDouble`), so `2^53 + 1 > 9007199254740992.0` holds and
/// `Int64.max == 9223372036854775808` (2^63, a double) does not, where a comparison as doubles
/// answers the other way.
///
/// Items hold `grp` (Integer 64) around 2^53, 2^60 and the limits, and `price` (Double) at the
/// doubles nearest them; boxes hold items (box b3 none). Each statement is asked at the top
/// level and nested: qualifiers, SUBQUERY, collection operators, functions, HAVING, IN,
/// BETWEEN, TERNARY, variables and arguments.
enum LargeIntegerFixture {
    static let json = #"""
    {"name": "LargeIntegers", "entities": [
      {"name": "Item",
       "attributes": [{"name": "grp", "type": "Integer 64"}, {"name": "price", "type": "Double"},
                      {"name": "rank", "type": "Integer 64"}],
       "relationships": [{"name": "box", "destination": "Box", "inverse": "items"}]},
      {"name": "Box",
       "attributes": [{"name": "label", "type": "String", "optional": false}],
       "relationships": [{"name": "items", "destination": "Item", "toMany": true, "inverse": "box"}]}
    ]}
    """#

    static func model() throws -> DataModel { try JSONModelFormat.read(Data(json.utf8)) }

    static let twoTo53: Int64 = 9_007_199_254_740_992

    /// The items' `grp` values (nil: none).
    static let integers: [Int64?] = [
        twoTo53, twoTo53 + 1, twoTo53 - 1, -(twoTo53 + 1), .max, .max - 1, .min, .min + 1, 4_611_686_018_427_387_905, 0, 5, nil,
        1_152_921_504_606_847_276, 9_223_372_036_854_774_784, twoTo53 + 3, -twoTo53,
    ]

    /// The items' `price` values (nil: none): doubles at and around the same places.
    static let doubles: [Double?] = [
        9_007_199_254_740_992.0, 9_223_372_036_854_775_808.0, -9_223_372_036_854_775_808.0, 9_223_372_036_854_774_784.0, 0.5,
        9_007_199_254_740_994.0, 1e300, nil, 1_152_921_504_606_847_232.0, -9_007_199_254_740_992.0, 5.0, 4_611_686_018_427_387_904.0,
        -0.5, .infinity, 9_007_199_254_740_996.0, 0.0,
    ]

    /// Which box each item is in (nil: none).
    static let boxes: [Int?] = [0, 0, 1, 1, 2, 2, 2, 4, 4, 0, 1, 4, 3, nil, 3, 1]

    /// The same objects in any store.
    static func fill(_ store: any PersistentStore) throws {
        for b in 0..<5 { try store.insert("Box", id: ObjectID("b\(b)"), ["label": .string("Box \(b)")]) }
        for i in integers.indices {
            var attributes: [String: Value] = ["rank": .int(Int64(i % 5))]
            if let grp = integers[i] { attributes["grp"] = .int(grp) }
            if let price = doubles[i] { attributes["price"] = .double(price) }
            let relationships: [String: [ObjectID]] = boxes[i].map { ["box": [ObjectID("b\($0)")]] } ?? [:]
            try store.insert("Item", id: ObjectID("i\(i)"), attributes, relationships: relationships)
        }
        try store.save()
    }

    /// Doubles written as constants: 2^53, 2^63 (in both spellings), -2^63, 2^63 - 1024 (the
    /// greatest double below 2^63), the double nearest 2^60 + 252, fractions, far out.
    static let doubleConstants = [
        "9007199254740992.0", "9223372036854775808", "9223372036854775808.0", "-9223372036854775808.0", "9223372036854774784.0",
        "9007199254740994.0", "1152921504606847232.0", "0.5", "-0.5", "4611686018427387904.0", "1e300", "-1e300",
    ]

    /// Integers written as constants, against doubles: 2^53 + 1, the limits, 2^60 + 252.
    static let integerConstants = ["9007199254740993", "9223372036854775807", "-9223372036854775807", "1152921504606847276", "9007199254740992"]

    static let operators = ["==", "!=", "<", "<=", ">", ">="]

    /// Every statement; each sorts, so that results compare in order.
    static let statements: [String] = {
        var statements: [String] = []
        for op in operators {
            for d in doubleConstants {
                statements.append("Item WHERE grp \(op) \(d) SORT BY rank, grp")
                statements.append("Item WHERE \(d) \(op) grp SORT BY rank, grp")
            }
            for i in integerConstants { statements.append("Item WHERE price \(op) \(i) SORT BY rank, grp") }
            // Two attributes; computed integers (negated, shifted by a constant) and a function's value.
            statements.append("Item WHERE grp \(op) price SORT BY rank, grp")
            statements.append("Item WHERE price \(op) grp SORT BY rank, grp")
            statements.append("Item WHERE -grp \(op) -9007199254740992.0 SORT BY rank, grp")
            statements.append("Item WHERE grp - 2 \(op) 9007199254740992.0 SORT BY rank, grp")
            statements.append("Item WHERE abs:(grp) \(op) 9007199254740992.0 SORT BY rank, grp")
            // Nested: qualifiers, SUBQUERY, collection operators and functions, TERNARY.
            statements.append("Box WHERE ANY items.grp \(op) 9007199254740992.0 SORT BY label")
            statements.append("Box WHERE ALL items.grp \(op) 9223372036854775808 SORT BY label")
            statements.append("Box WHERE NONE items.grp \(op) 9007199254740994.0 SORT BY label")
            statements.append("Box WHERE items.grp \(op) 9223372036854774784.0 SORT BY label")
            statements.append("Box WHERE ANY items.price \(op) 9007199254740993 SORT BY label")
            statements.append("Box WHERE SUBQUERY(items, $i, $i.grp \(op) 9007199254740992.0).@count >= 2 SORT BY label")
            statements.append("Box WHERE SUBQUERY(items, $i, $i.grp \(op) $i.price).@count > 0 SORT BY label")
            statements.append(
                "Box WHERE SUBQUERY(items, $i, SUBQUERY($i.box.items, $j, $j.grp \(op) 9223372036854775808.0).@count > 0).@count > 0 SORT BY label")
            statements.append("Box WHERE items.@max.grp \(op) 9223372036854775808 SORT BY label")
            statements.append("Box WHERE items.@min.grp \(op) -9223372036854775808.0 SORT BY label")
            statements.append("Box WHERE items.@max.grp \(op) 9007199254740992.0 SORT BY label")
            statements.append("Box WHERE items.@min.price \(op) 9007199254740993 SORT BY label")
            statements.append("Box WHERE max:(items.grp) \(op) 9223372036854774784.0 SORT BY label")
            statements.append("Box WHERE items.@sum.grp \(op) 9007199254740992.0 SORT BY label")
            statements.append("Box WHERE items.@count \(op) 2.5 SORT BY label")
            statements.append("Item WHERE TERNARY(grp \(op) 9007199254740992.0, 1, 0) == 1 SORT BY rank, grp")
            statements.append("Item WHERE TERNARY(rank < 2, grp, price) \(op) 9007199254740992.0 SORT BY rank, grp")
            statements.append("Item WHERE box.items.@max.grp \(op) 9223372036854775808 SORT BY rank, grp")
            // HAVING on an alias, and a SELECT's WHERE.
            statements.append("SELECT box.label AS l, max:(grp) AS m FROM Item GROUP BY box.label HAVING m \(op) 9007199254740992.0 SORT BY l")
            statements.append("SELECT rank, min:(grp) AS m FROM Item GROUP BY rank HAVING m \(op) -9223372036854775808.0 SORT BY rank")
            statements.append("SELECT rank, max:(price) AS m FROM Item GROUP BY rank HAVING m \(op) 9007199254740993 SORT BY rank")
            statements.append("SELECT grp, price FROM Item WHERE grp \(op) 9223372036854775808 SORT BY rank, grp")
            // Variables and arguments (a double bound, not written).
            statements.append("Item WHERE grp \(op) $d SORT BY rank, grp")
            statements.append("Item WHERE grp \(op) %@ SORT BY rank, grp")
            statements.append("Box WHERE SUBQUERY(items, $i, $i.grp \(op) $d).@count > 0 SORT BY label")
        }
        // IN and BETWEEN.
        statements += [
            "Item WHERE grp IN {9007199254740992.0, 9223372036854775808} SORT BY rank, grp",
            "Item WHERE grp IN {9223372036854775808.0, -9223372036854775808.0, 9223372036854774784.0} SORT BY rank, grp",
            "Item WHERE price IN {9007199254740993, 9223372036854775807, 9223372036854774784} SORT BY rank, grp",
            "Item WHERE grp BETWEEN {9007199254740992.0, 9223372036854775808} SORT BY rank, grp",
            "Item WHERE grp BETWEEN {9007199254740992.5, 9223372036854774784.0} SORT BY rank, grp",
            "Item WHERE grp BETWEEN {-9223372036854775808.0, -9007199254740992.0} SORT BY rank, grp",
            "Item WHERE price BETWEEN {9007199254740993, 9223372036854775807} SORT BY rank, grp",
            "Item WHERE NOT grp BETWEEN {9007199254740992.0, 9223372036854775808} SORT BY rank, grp",
            "Item WHERE grp IN box.items.price SORT BY rank, grp",
            "Box WHERE ANY items.grp IN {9007199254740992.0, 9223372036854775808} SORT BY label",
            "Box WHERE SUBQUERY(items, $i, $i.grp BETWEEN {9007199254740992.0, 9223372036854775808}).@count > 0 SORT BY label",
            "Box WHERE 9223372036854775808 IN items.grp SORT BY label",
            "Box WHERE 9007199254740992.0 IN items.grp SORT BY label",
            "SELECT rank, max:(grp) AS m FROM Item GROUP BY rank HAVING m IN {9223372036854775808, 9007199254740992.0} SORT BY rank",
            "SELECT rank, max:(grp) AS m FROM Item GROUP BY rank HAVING m BETWEEN {9007199254740992.0, 9223372036854775808} SORT BY rank",
            "SELECT rank, TERNARY(rank < 2, grp, price) AS v FROM Item SORT BY rank, grp",
                        // Sorting integers and doubles together.
            "Item SORT BY grp, rank",
            "Item SORT BY price DESC, grp",
        ]
        return statements
    }()

    /// The value of `$d` and `%@`: 2^53 as a double.
    static let boundDouble = 9_007_199_254_740_992.0

    static func request(_ statement: String) throws -> FetchRequest {
        try FetchRequest(statement: statement, arguments: statement.contains("%@") ? [boundDouble] : [],
                         variables: statement.contains("$d") ? ["d": boundDouble] : [:])
    }

    /// A result as text, to compare stores: object IDs in order, or rows.
    static func text(_ result: FetchResult) -> String {
        switch result {
        case .objects(let objects): return objects.map { $0.objectID.rawValue }.joined(separator: " ")
        case .objectIDs(let ids): return ids.map(\.rawValue).joined(separator: " ")
        case .dictionaries(let rows):
            return rows.map { row in row.pairs.map { "\($0.0)=\(ValueText.text($0.1))" }.joined(separator: " ") }.joined(separator: "\n")
        case .count(let n): return "count \(n)"
        }
    }
}
