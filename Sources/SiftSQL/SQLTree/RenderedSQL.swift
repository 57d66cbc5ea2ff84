
/// A statement rendered in a dialect: its text, the values its placeholders bind (in order),
/// and the constructs the dialect could not say (the text must not run unless it is empty).
package struct RenderedSQL {
    package let sql: String
    package let bindings: [SQLValue]
    package let unsupported: [String]

    /// The statement `renderer` has written as `sql`.
    init(sql: String, renderer: SQLRenderer) {
        self.sql = sql
        self.bindings = renderer.bindings
        self.unsupported = renderer.unsupported
    }
}
