/// Identifiers (table, column, schema, constraint names) written into SQL text: always quoted, so
/// any name (a reserved word, upper case, spaces, quotes) means itself. Values never go into SQL
/// text: they are parameters (`PostgreSQLValue`).
public enum PostgreSQLIdentifier {
    /// `name` in double quotes, each double quote in it doubled: `a"b` → `"a""b"`. (A NUL
    /// character cannot be in an identifier: SQL holding one is refused when it is run.)
    public static func quoted(_ name: String) -> String {
        "\"" + name.replacingAll("\"", with: "\"\"") + "\""
    }

    /// `"schema"."name"`.
    public static func qualified(schema: String, name: String) -> String {
        quoted(schema) + "." + quoted(name)
    }
}

extension String {
    /// The string with every `target` scalar replaced by `replacement`. (Scalars, not
    /// characters: a quote followed by a combining mark is one `Character`, which is not a
    /// quote, but the server reads the quote and then the mark.)
    func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if scalar == target { out += replacement } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// Whether the UTF-8 text holds a NUL byte, which would end it early as a C string.
    var containsNUL: Bool { utf8.contains(0) }
}
