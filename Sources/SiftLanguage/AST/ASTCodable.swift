import Foundation

// The AST's JSON form (documented in docs/AST-JSON.md). Every node is an object with a "type"
// and, for parsed nodes, a "range" of UTF-8 byte offsets [start, end] (ignored by equality).

private enum NodeKey: String, CodingKey {
    case type, range, value, valueType, `operator`, modifier, options, left, right, predicates, predicate
    case base, keys, name, elements, index, position, arguments, receiver, selector, collection, variable
    case condition, then, `else`, to, operand
}

private func decodingError(_ container: KeyedDecodingContainer<NodeKey>, _ message: String) -> DecodingError {
    DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: message)
}

extension PredicateNode: Codable {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: NodeKey.self)
        switch kind {
        case .constant(let value):
            try c.encode("constant", forKey: .type)
            try c.encode(value, forKey: .value)
        case .comparison(let comparison):
            try c.encode("comparison", forKey: .type)
            if comparison.modifier != .direct { try c.encode(comparison.modifier, forKey: .modifier) }
            try c.encode(comparison.operator, forKey: .operator)
            if !comparison.options.isEmpty { try c.encode(comparison.options, forKey: .options) }
            try c.encode(comparison.left, forKey: .left)
            try c.encode(comparison.right, forKey: .right)
        case .and(let predicates):
            try c.encode("and", forKey: .type)
            try c.encode(predicates, forKey: .predicates)
        case .or(let predicates):
            try c.encode("or", forKey: .type)
            try c.encode(predicates, forKey: .predicates)
        case .not(let predicate):
            try c.encode("not", forKey: .type)
            try c.encode(predicate, forKey: .predicate)
        }
        try c.encodeIfPresent(range, forKey: .range)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: NodeKey.self)
        let type = try c.decode(String.self, forKey: .type)
        let range = try c.decodeIfPresent(SourceRange.self, forKey: .range)
        switch type {
        case "constant": self.init(.constant(try c.decode(Bool.self, forKey: .value)), range: range)
        case "comparison":
            let comparison = Comparison(
                try c.decode(ExpressionNode.self, forKey: .left),
                try c.decode(ComparisonOperator.self, forKey: .operator),
                try c.decode(ExpressionNode.self, forKey: .right),
                modifier: try c.decodeIfPresent(ComparisonModifier.self, forKey: .modifier) ?? .direct,
                options: try c.decodeIfPresent(ComparisonOptions.self, forKey: .options) ?? [])
            self.init(.comparison(comparison), range: range)
        case "and", "or":
            let predicates = try c.decode([PredicateNode].self, forKey: .predicates)
            guard predicates.count >= 2 else { throw decodingError(c, "'\(type)' needs at least two predicates") }
            self.init(type == "and" ? .and(predicates) : .or(predicates), range: range)
        case "not": self.init(.not(try c.decode(PredicateNode.self, forKey: .predicate)), range: range)
        default: throw decodingError(c, "unknown predicate type '\(type)' (constant, comparison, and, or, not)")
        }
    }
}

extension ExpressionNode: Codable {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: NodeKey.self)
        switch kind {
        case .constant(let value):
            try c.encode("constant", forKey: .type)
            try value.encodeFields(into: &c)
        case .evaluatedObject:
            try c.encode("self", forKey: .type)
        case .keyPath(let base, let keys):
            try c.encode("keyPath", forKey: .type)
            try c.encodeIfPresent(base, forKey: .base)
            try c.encode(keys, forKey: .keys)
        case .variable(let name):
            try c.encode("variable", forKey: .type)
            try c.encode(name, forKey: .name)
        case .aggregate(let elements):
            try c.encode("aggregate", forKey: .type)
            try c.encode(elements, forKey: .elements)
        case .dictionary(let entries):
            try c.encode("dictionary", forKey: .type)
            try c.encode(entries.map(\.key), forKey: .keys)
            try c.encode(entries.map(\.value), forKey: .elements)
        case .index(let base, let sub):
            try c.encode("index", forKey: .type)
            try c.encode(base, forKey: .base)
            switch sub {
            case .first: try c.encode("first", forKey: .position)
            case .last: try c.encode("last", forKey: .position)
            case .size: try c.encode("size", forKey: .position)
            case .expression(let e): try c.encode(e, forKey: .index)
            }
        case .function(let name, let arguments):
            try c.encode("function", forKey: .type)
            try c.encode(name, forKey: .name)
            try c.encode(arguments, forKey: .arguments)
        case .functionExpression(let receiver, let selector, let arguments):
            try c.encode("functionExpression", forKey: .type)
            try c.encode(receiver, forKey: .receiver)
            try c.encode(selector, forKey: .selector)
            try c.encode(arguments, forKey: .arguments)
        case .subquery(let collection, let variable, let predicate):
            try c.encode("subquery", forKey: .type)
            try c.encode(collection, forKey: .collection)
            try c.encode(variable, forKey: .variable)
            try c.encode(predicate, forKey: .predicate)
        case .ternary(let condition, let then, let otherwise):
            try c.encode("ternary", forKey: .type)
            try c.encode(condition, forKey: .condition)
            try c.encode(then, forKey: .then)
            try c.encode(otherwise, forKey: .else)
        case .cast(let value, let type):
            try c.encode("cast", forKey: .type)
            try c.encode(value, forKey: .value)
            try c.encode(type, forKey: .to)
        case .assignment(let variable, let value):
            try c.encode("assignment", forKey: .type)
            try c.encode(variable, forKey: .variable)
            try c.encode(value, forKey: .value)
        case .unary(let op, let operand):
            try c.encode("unary", forKey: .type)
            try c.encode(op, forKey: .operator)
            try c.encode(operand, forKey: .operand)
        case .binary(let op, let left, let right):
            try c.encode("binary", forKey: .type)
            try c.encode(op, forKey: .operator)
            try c.encode(left, forKey: .left)
            try c.encode(right, forKey: .right)
        }
        try c.encodeIfPresent(range, forKey: .range)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: NodeKey.self)
        let type = try c.decode(String.self, forKey: .type)
        let range = try c.decodeIfPresent(SourceRange.self, forKey: .range)
        let kind: Kind
        switch type {
        case "constant": kind = .constant(try ConstantValue(fields: c))
        case "self": kind = .evaluatedObject
        case "keyPath":
            let keys = try c.decode([String].self, forKey: .keys)
            guard !keys.isEmpty else { throw decodingError(c, "a key path needs at least one key") }
            kind = .keyPath(base: try c.decodeIfPresent(ExpressionNode.self, forKey: .base), keys: keys)
        case "variable": kind = .variable(try c.decode(String.self, forKey: .name))
        case "aggregate": kind = .aggregate(try c.decode([ExpressionNode].self, forKey: .elements))
        case "dictionary":
            let keys = try c.decode([String].self, forKey: .keys)
            let values = try c.decode([ExpressionNode].self, forKey: .elements)
            guard keys.count == values.count else { throw decodingError(c, "a dictionary needs as many keys as elements (\(keys.count) keys, \(values.count) elements)") }
            guard Set(keys).count == keys.count else { throw decodingError(c, "a dictionary's keys must be distinct") }
            kind = .dictionary(zip(keys, values).map { DictionaryEntry($0, $1) })
        case "index":
            let base = try c.decode(ExpressionNode.self, forKey: .base)
            if let position = try c.decodeIfPresent(String.self, forKey: .position) {
                switch position {
                case "first": kind = .index(base: base, subscript: .first)
                case "last": kind = .index(base: base, subscript: .last)
                case "size": kind = .index(base: base, subscript: .size)
                default: throw decodingError(c, "unknown index position '\(position)' (first, last, size)")
                }
            } else {
                kind = .index(base: base, subscript: .expression(try c.decode(ExpressionNode.self, forKey: .index)))
            }
        case "function":
            kind = .function(name: try c.decode(String.self, forKey: .name), arguments: try c.decode([ExpressionNode].self, forKey: .arguments))
        case "functionExpression":
            kind = .functionExpression(
                receiver: try c.decode(ExpressionNode.self, forKey: .receiver),
                selector: try c.decode(String.self, forKey: .selector),
                arguments: try c.decodeIfPresent([ExpressionNode].self, forKey: .arguments) ?? [])
        case "subquery":
            kind = .subquery(
                collection: try c.decode(ExpressionNode.self, forKey: .collection),
                variable: try c.decode(String.self, forKey: .variable),
                predicate: try c.decode(PredicateNode.self, forKey: .predicate))
        case "ternary":
            kind = .ternary(
                condition: try c.decode(PredicateNode.self, forKey: .condition),
                then: try c.decode(ExpressionNode.self, forKey: .then),
                else: try c.decode(ExpressionNode.self, forKey: .else))
        case "cast": kind = .cast(value: try c.decode(ExpressionNode.self, forKey: .value), type: try c.decode(String.self, forKey: .to))
        case "assignment":
            kind = .assignment(variable: try c.decode(String.self, forKey: .variable), value: try c.decode(ExpressionNode.self, forKey: .value))
        case "unary":
            kind = .unary(try c.decode(UnaryOperator.self, forKey: .operator), try c.decode(ExpressionNode.self, forKey: .operand))
        case "binary":
            kind = .binary(
                try c.decode(BinaryOperator.self, forKey: .operator),
                try c.decode(ExpressionNode.self, forKey: .left),
                try c.decode(ExpressionNode.self, forKey: .right))
        default:
            throw decodingError(c, "unknown expression type '\(type)'")
        }
        self.init(kind, range: range)
    }
}

extension ConstantValue {
    /// `"valueType"` and `"value"`: integer → JSON integer, double → JSON number, decimal →
    /// string, string, boolean, nil (no value), date → seconds since
    /// 2001-01-01, data → base64, uuid → string, objectID → string.
    fileprivate func encodeFields(into c: inout KeyedEncodingContainer<NodeKey>) throws {
        try c.encode(kindName, forKey: .valueType)
        switch self {
        case .null: break
        case .bool(let b): try c.encode(b, forKey: .value)
        case .int(let i): try c.encode(i, forKey: .value)
        case .double(let d): try c.encode(d, forKey: .value)
        case .decimal(let d): try c.encode(d.description, forKey: .value)
        case .string(let s): try c.encode(s, forKey: .value)
        case .date(let d): try c.encode(d.timeIntervalSinceReferenceDate, forKey: .value)
        case .data(let d): try c.encode(d.base64EncodedString(), forKey: .value)
        case .uuid(let u): try c.encode(u.uuidString, forKey: .value)
        case .objectID(let o): try c.encode(o.rawValue, forKey: .value)
        }
    }

    fileprivate init(fields c: KeyedDecodingContainer<NodeKey>) throws {
        let type = try c.decode(String.self, forKey: .valueType)
        switch type {
        case "nil": self = .null
        case "boolean": self = .bool(try c.decode(Bool.self, forKey: .value))
        case "integer": self = .int(try c.decode(Int64.self, forKey: .value))
        case "double": self = .double(try c.decode(Double.self, forKey: .value))
        case "decimal":
            let text = try c.decode(String.self, forKey: .value)
            guard CastFolding.isDecimalNumeral(text), let d = Decimal(string: text, locale: nil) else {
                throw decodingError(c, "invalid decimal '\(text)'")
            }
            self = .decimal(d)
        case "string": self = .string(try c.decode(String.self, forKey: .value))
        case "date": self = .date(Date(timeIntervalSinceReferenceDate: try c.decode(Double.self, forKey: .value)))
        case "data":
            let text = try c.decode(String.self, forKey: .value)
            guard let d = Data(base64Encoded: text) else { throw decodingError(c, "invalid base64 data") }
            self = .data(d)
        case "uuid":
            let text = try c.decode(String.self, forKey: .value)
            guard let u = UUID(uuidString: text) else { throw decodingError(c, "invalid UUID '\(text)'") }
            self = .uuid(u)
        case "objectID": self = .objectID(ObjectID(try c.decode(String.self, forKey: .value)))
        default:
            throw decodingError(c, "unknown valueType '\(type)' (nil, boolean, integer, double, decimal, string, date, data, uuid, objectID)")
        }
    }
}
