/// An object output option that cannot apply (an unknown `--properties` name, `--properties` on a SELECT).
struct OutputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
