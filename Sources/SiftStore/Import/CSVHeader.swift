/// The header row of a CSV table: the names of its columns, each named once. Every record
/// after it must have as many fields.
struct CSVHeader {
    let names: [String]
    /// The line the header is on.
    let line: Int

    /// The header that is `reader`'s current record.
    init(_ reader: CSVReader, entity: String) throws(CSVReader.Failure) {
        var names: [String] = []
        var columns: [String: Int] = [:]
        for column in 0..<reader.fieldCount {
            guard let name = reader.string(column), !name.isEmpty else {
                throw CSVReader.Failure(line: reader.recordLine, message: "column \(column + 1) of the header has no name")
            }
            if let earlier = columns[name] {
                throw CSVReader.Failure(line: reader.recordLine, message: "the header names '\(name)' twice (columns \(earlier + 1) and \(column + 1))")
            }
            columns[name] = column
            names.append(name)
        }
        self.names = names
        self.line = reader.recordLine
    }

    /// Checks that `reader`'s current record has a field for each column, and no more.
    func check(_ reader: CSVReader) throws(CSVReader.Failure) {
        guard reader.fieldCount == names.count else {
            throw CSVReader.Failure(line: reader.recordLine, message: "\(reader.fieldCount) fields, but the header has \(names.count)")
        }
    }
}
