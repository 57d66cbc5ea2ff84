import SiftEvaluation

/// SQL string literals, written the one way every engine Sift speaks to reads them: `'text'`,
/// each `'` doubled. Only names from the model or the catalogue (an entity's name in a test or a
/// DDL statement) and the compiler's own constants are written as literals; a user's values are
/// bound, never pasted into SQL text.
package enum SQLStringLiteral {
    /// `text` as a SQL string literal.
    package static func quoted(_ text: String) -> String { enclosed(text, in: "'") }

    /// `text` between two `quote`s, each `quote` in it doubled: the SQL standard's quoting of
    /// string literals (`'`) and identifiers (`"`, ``SQLIdentifier/quoted(_:)``).
    ///
    /// The quotes are found scalar by scalar: a quote followed by a combining mark is one
    /// `Character` (and Foundation's `replacingOccurrences(of: "'", …)` leaves it as it is), but
    /// an engine reads the quote, then the mark.
    package static func enclosed(_ text: String, in quote: Unicode.Scalar) -> String {
        let mark = String(quote)
        return mark + text.replacingScalar(quote, with: mark + mark) + mark
    }
}
