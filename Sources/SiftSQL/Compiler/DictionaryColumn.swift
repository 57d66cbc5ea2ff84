import SiftEvaluation
import SiftLanguage
import SiftStore

/// One selected column of a dictionary query: its SQL, and how the stored value it yields
/// becomes the value the evaluator would have put in the result.
///
///     "t0"."when"                                          -- a Date attribute: REAL seconds → date
///     (SELECT "_id" FROM "Person" WHERE "_pk" = "t0"."owner")  -- a to-one: the destination's ID → reference
///     count("t0"."price")                                  -- an integer, as stored
struct DictionaryColumn {
    enum Decoding {
        /// `ColumnCodec.decode` as an attribute of this type (nil: as stored).
        case value(AttributeType?)
        /// A number computed in SQL: an integer, a double, or a decimal as its text
        /// (``DecimalText``).
        case number
        /// A sum of doubles computed in SQL: NULL (no values) is the integer 0, as the
        /// evaluator's sum of none.
        case sumOfDoubles
        /// The destination's object ID (text), as an object reference; NULL is nil.
        case objectID
        /// The destination's row key, as a reference to `<prefix><key>`; NULL is nil.
        case objectKey(prefix: String)
    }

    let expression: SQLExpression
    let decoding: Decoding

    /// The result value of a stored value.
    func decode(_ stored: SQLValue) -> Value {
        switch (decoding, stored) {
        case (.sumOfDoubles, .null): return .int(0)
        case (.sumOfDoubles, _): return ColumnCodec.decode(stored, as: .double)
        case (_, .null): return .null
        case (.value(let type), _): return ColumnCodec.decode(stored, as: type)
        case (.number, .text(let text)): return DecimalText.decimal(text).map(Value.decimal) ?? .string(text)
        case (.number, _): return ColumnCodec.decode(stored, as: nil)
        case (.objectID, .text(let id)): return .object(ObjectReference(ObjectID(id)))
        case (.objectKey(let prefix), .integer(let key)): return .object(ObjectReference(ObjectID(prefix + String(key))))
        case (.objectID, _), (.objectKey, _): return ColumnCodec.decode(stored, as: nil)
        }
    }
}
