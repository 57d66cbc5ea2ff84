extension String {
    /// The string with every `target` scalar replaced by `replacement`; others kept.
    ///
    /// For quoting and escaping (SQL literals, CSV fields, shell words, array literals): the
    /// quote is found scalar by scalar. A quote followed by a combining mark is one `Character`,
    /// which `replacingOccurrences(of:with:)` does not match, but whatever reads the text back
    /// reads the quote, then the mark.
    package func replacingScalar(_ target: Unicode.Scalar, with replacement: String) -> String {
        var out = ""
        out.reserveCapacity(utf8.count + 2)
        for scalar in unicodeScalars {
            if scalar == target { out += replacement } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
