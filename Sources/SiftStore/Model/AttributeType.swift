/// An attribute's type, with Core Data's names (FETCH.md §1). Transformable is stored as
/// binary; URI as its string. Undefined (Core Data's `NSUndefinedAttributeType`) holds a value
/// of any scalar kind, each value keeping its own: it is what a column of a SQLite database Sift
/// did not create becomes when its stored values disagree with one another
/// (docs/SQLITE-DATABASES.md).
public enum AttributeType: String, CaseIterable, Sendable, Codable {
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    case transformable = "Transformable"
    case undefined = "Undefined"

    /// The name used in model files: Xcode's `attributeType` ("Integer 16", "String", ...).
    public var name: String { rawValue }

    /// Reads a type name as Xcode writes it ("Integer 16", "Binary"), case-insensitively, also
    /// without the space ("integer16") and with Xcode's older spellings ("Binary Data").
    public init?(name: String) {
        let squeezed = name.lowercased().replacingOccurrences(of: " ", with: "")
        switch squeezed {
        case "integer16", "int16": self = .integer16
        case "integer32", "int32": self = .integer32
        case "integer64", "int64": self = .integer64
        case "decimal": self = .decimal
        case "double": self = .double
        case "float": self = .float
        case "string": self = .string
        case "boolean", "bool": self = .boolean
        case "date": self = .date
        case "binary", "binarydata", "data": self = .binary
        case "uuid": self = .uuid
        case "uri", "url": self = .uri
        case "transformable": self = .transformable
        case "undefined", "any": self = .undefined
        default: return nil
        }
    }

    /// The range an integer attribute holds; nil for other types.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        default: nil
        }
    }

    public var isInteger: Bool { integerRange != nil }
}
