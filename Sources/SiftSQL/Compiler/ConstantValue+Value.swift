import SiftEvaluation
import SiftLanguage

extension ConstantValue {
    /// A single value as a constant of the language (nil for collections and other objects).
    init?(_ value: Value) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .decimal(let d): self = .decimal(d)
        case .string(let s): self = .string(s)
        case .date(let d): self = .date(d)
        case .data(let d): self = .data(d)
        case .uuid(let u): self = .uuid(u)
        case .object(let object):
            guard let id = (object as? ObjectReference)?.id ?? (object as? any ObjectIDConvertible)?.objectID else { return nil }
            self = .objectID(id)
        case .array, .set, .dictionary: return nil
        }
    }
}

extension Value {
    /// Whether this is a double that is NaN (which SQLite cannot hold: bound, it is NULL).
    var isNaN: Bool {
        if case .double(let d) = self { return d.isNaN }
        return false
    }
}
