import Foundation
import SiftLanguage
import Testing
@testable import SiftEvaluation

@Suite("Value(any:)")
struct JSONAnyConversionTests {
    typealias T = JSONTestSupport

    func value(_ any: Any?) throws -> Value { try Value(any: any) }

    @Test func swiftScalars() throws {
        #expect(T.same(try value(nil), .null))
        #expect(T.same(try value(NSNull()), .null))
        #expect(T.same(try value(true), .bool(true)))
        #expect(T.same(try value(42), .int(42)))
        #expect(T.same(try value(Int8(-3)), .int(-3)))
        #expect(T.same(try value(UInt16(7)), .int(7)))
        #expect(T.same(try value(Int64.min), .int(.min)))
        #expect(T.same(try value(UInt64.max), .double(Double(UInt64.max))))
        #expect(T.same(try value(UInt(5)), .int(5)))
        #expect(T.same(try value(2.5), .double(2.5)))
        #expect(T.same(try value(Float(1.5)), .double(1.5)))
        #expect(T.same(try value(Decimal(string: "1.25")!), .decimal(Decimal(string: "1.25")!)))
        #expect(T.same(try value("s"), .string("s")))
        #expect(T.same(try value(Substring("sub")), .string("sub")))
        #expect(T.same(try value(Character("c")), .string("c")))
        let date = Date(timeIntervalSinceReferenceDate: 5)
        #expect(T.same(try value(date), .date(date)))
        #expect(T.same(try value(Data([1])), .data(Data([1]))))
        let uuid = UUID()
        #expect(T.same(try value(uuid), .uuid(uuid)))
        let optional: Int? = 3
        #expect(T.same(try value(optional as Any), .int(3)))
        let none: Int? = nil
        #expect(T.same(try value(none as Any), .null))
    }

    @Test func foundationNumbers() throws {
        #expect(T.same(try value(NSNumber(value: true)), .bool(true)))
        #expect(T.same(try value(NSNumber(value: false)), .bool(false)))
        #expect(T.same(try value(NSNumber(value: 1)), .int(1)))
        #expect(T.same(try value(NSNumber(value: -9)), .int(-9)))
        #expect(T.same(try value(NSNumber(value: 2.5)), .double(2.5)))
        #expect(T.same(try value(NSNumber(value: UInt64.max)), .double(Double(UInt64.max))))
    }

    @Test func dictionariesAndArrays() throws {
        let any: [String: Any] = ["b": [1, "x", NSNull()] as [Any], "a": ["c": 2.5], "d": Optional<Int>.none as Any]
        #expect(T.same(try value(any), T.object([
            "a": T.object(["c": .double(2.5)]),
            "b": .array([.int(1), .string("x"), .null]),
            "d": .null,
        ])))
        let ordered: [(String, Any?)] = [("z", 1), ("y", nil)]
        #expect(T.same(try value(ordered), T.object(["z": .int(1), "y": .null])))
        let pairs: KeyValuePairs<String, Any?> = ["q": "x", "p": 2]
        #expect(T.same(try value(pairs), T.object(["q": .string("x"), "p": .int(2)])))
        #expect(T.same(try value([1, 2, 3]), .array([.int(1), .int(2), .int(3)])))
        // An empty array is an array (it also casts to an empty list of pairs).
        #expect(T.same(try value([] as [Any]), .array([])))
        #expect(T.same(try value(["tags": [] as [Any]] as [String: Any]), T.object(["tags": .array([])])))
        #expect(T.same(try value([Int?.none, 1]), .array([.null, .int(1)])))
        #expect(T.same(try value(Set([7])), .set([.int(7)])))
    }

    @Test func foundationCollections() throws {
        let dictionary = NSDictionary(dictionary: ["k": NSArray(array: [NSNumber(value: true), "s"])])
        #expect(T.same(try value(dictionary), T.object(["k": .array([.bool(true), .string("s")])])))
    }

    @Test func valuesPassThrough() throws {
        let v = T.object(["a": .int(1)])
        #expect(T.same(try value(v), v))
        #expect(T.same(try value(ConstantValue.string("c")), .string("c")))
        guard case .dictionary(let d) = v else { return }
        #expect(T.same(try value(d), v))
    }

    @Test func otherTypesAreErrors() throws {
        struct Opaque {}
        #expect(throws: EvaluationError.self) { try Value(any: Opaque()) }
        #expect(throws: EvaluationError.self) { try Value(any: [1: "int keys"]) }
        var deep: Any = 1
        for _ in 0..<600 { deep = [deep] }
        #expect(throws: EvaluationError.self) { try Value(any: deep) }
    }
}
