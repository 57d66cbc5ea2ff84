import Foundation
import Testing
@testable import SiftLanguage

/// The documented JSON form (docs/AST-JSON.md).
@Suite("AST JSON form")
struct CodableTests {
    func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func encodesTheDocumentedExample() throws {
        // Built (no ranges), so the JSON is exactly the documented form.
        let p = PredicateNode.and([
            .comparison(.keyPath("tags.name"), .beginsWith, .constant("sci"), modifier: .any, options: [.caseInsensitive, .diacriticInsensitive]),
            .not(.comparison(.binary(.multiply, .keyPath("price"), .constant(2)), .greaterThan, .variable("max"))),
        ])
        #expect(try json(p) == #"{"predicates":[{"left":{"keys":["tags","name"],"type":"keyPath"},"modifier":"any","operator":"BEGINSWITH","options":"cd","right":{"type":"constant","value":"sci","valueType":"string"},"type":"comparison"},{"predicate":{"left":{"left":{"keys":["price"],"type":"keyPath"},"operator":"*","right":{"type":"constant","value":2,"valueType":"integer"},"type":"binary"},"operator":">","right":{"name":"max","type":"variable"},"type":"comparison"},"type":"not"}],"type":"and"}"#)
    }

    @Test func parsedNodesCarryRanges() throws {
        #expect(try json(parse("a == 1")) == #"{"left":{"keys":["a"],"range":[0,1],"type":"keyPath"},"operator":"==","range":[0,6],"right":{"range":[5,6],"type":"constant","value":1,"valueType":"integer"},"type":"comparison"}"#)
    }

    @Test func constantsOfEveryKind() throws {
        let values: [(ConstantValue, String)] = [
            (.null, #"{"type":"constant","valueType":"nil"}"#),
            (.bool(true), #"{"type":"constant","value":true,"valueType":"boolean"}"#),
            (.double(2.5), #"{"type":"constant","value":2.5,"valueType":"double"}"#),
            (.decimal(Decimal(string: "1.25")!), #"{"type":"constant","value":"1.25","valueType":"decimal"}"#),
            (.date(Date(timeIntervalSinceReferenceDate: 60)), #"{"type":"constant","value":60,"valueType":"date"}"#),
            (.data(Data([1, 2])), #"{"type":"constant","value":"AQI=","valueType":"data"}"#),
            (.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), #"{"type":"constant","value":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","valueType":"uuid"}"#),
        ]
        for (value, expected) in values {
            let node = ExpressionNode.constant(value)
            #expect(try json(node) == expected)
            #expect(try JSONDecoder().decode(ExpressionNode.self, from: Data(expected.utf8)) == node)
        }
    }

    @Test func decodingRejectsMalformedNodes() {
        let bad = [
            #"{"type":"frob"}"#,
            #"{"type":"and","predicates":[{"type":"constant","value":true}]}"#,
            #"{"type":"comparison","operator":"===","left":{"type":"self"},"right":{"type":"self"}}"#,
            #"{"type":"comparison","operator":"==","options":"cx","left":{"type":"self"},"right":{"type":"self"}}"#,
        ]
        for text in bad {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(PredicateNode.self, from: Data(text.utf8)) }
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ExpressionNode.self, from: Data(#"{"type":"keyPath","keys":[]}"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ExpressionNode.self, from: Data(#"{"type":"constant","valueType":"uuid","value":"nope"}"#.utf8)) }
    }
}
