extension String {
    /// The string with every scalar in `replacements` replaced by its text; others kept.
    ///
    /// For quoting and escaping (SQL literals, CSV fields, shell words, array literals): the
    /// quote is found scalar by scalar. A quote followed by a combining mark is one `Character`,
    /// which `replacingOccurrences(of:with:)` does not match, but whatever reads the text back
    /// reads the quote, then the mark.
    package func replacingScalars(_ replacements: [Unicode.Scalar: String]) -> String {
        var out = ""
        out.reserveCapacity(utf8.count + 2)
        for scalar in unicodeScalars {
            if let replacement = replacements[scalar] { out += replacement } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
