import Sift

/// A key path given in an option (`--section-by`, `--select`, `--sort`): written as in a
/// predicate, so a key that is not a plain name is escaped as it is there (`#2B`, `#size`), and
/// named as fetch requests and the data name it (`2B`, `size`): keys joined by dots.
enum KeyPathOption {
    /// The key path `text` names (`#2B` → `2B`, `address.city`), or a failure naming `option`.
    static func keyPath(_ text: String, option: String) throws(FilterFailure) -> String {
        let expression: ExpressionNode
        do {
            expression = try ExpressionNode(format: text)
        } catch {
            throw FilterFailure("error: \(option): '\(text)' is not a key path: \(error.message)")
        }
        guard let keys = keys(of: expression) else {
            throw FilterFailure("error: \(option): '\(text)' is not a key path (write keys and dotted key paths: \(option) address.city)")
        }
        return keys.joined(separator: ".")
    }

    /// The keys of a key path read from the evaluated object (`a.b`, `SELF.a`, `#2B`); nil for
    /// any other expression.
    static func keys(of expression: ExpressionNode) -> [String]? {
        guard case .keyPath(let base, let keys) = expression.kind, base == nil || base?.kind == .evaluatedObject else { return nil }
        return keys
    }

    /// The keys of a key path as fetch requests write it (`address.city`).
    static func keys(of keyPath: String) -> [String] {
        keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
}
