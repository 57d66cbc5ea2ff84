import SiftEvaluation
import SiftLanguage
import SiftSQL
import SiftSQLStore
import SiftSQLite

extension SiftSQLFunctions {
    /// The functions reading columns of databases Sift did not create (``ForeignColumn``):
    ///
    /// - `sift_date(value, encoding)`: the date the value stands for, as seconds since 2001
    ///   (``ForeignDateEncoding/referenceSeconds(of:)``); NULL for NULL and for a value that is
    ///   no date.
    /// - `sift_nfc(value)`: text in NFC (`StringFolding.nfc`, the form the evaluator compares);
    ///   other values as they are.
    /// - `sift_date_form(text)`: which fixed-width ISO 8601 form a text date is in
    ///   (``TextDateForm``'s raw value, 1 to 5), 6 for another ISO 8601 spelling, 0 for text
    ///   that is no date; NULL for anything but text.
    static func registerForeignColumnFunctions(on database: SQLiteDatabase) throws(SQLiteError) {
        try database.createFunction(dateFunction, argumentCount: 2) { call in
            guard call.type(1) == .text, let encoding = ForeignDateEncoding(rawValue: call.text(1)) else {
                throw EvaluationError(.invalidArgument,
                                      "\(dateFunction): the encoding must be one of \(ForeignDateEncoding.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return encoding.referenceSeconds(of: SQLValue(call.value(0))).map(SQLiteValue.real) ?? .null
        }
        try database.createFunction(dateFormFunction, argumentCount: 1) { call in
            guard call.type(0) == .text else { return .null }
            if let form = call.withUTF8(0, TextDateForm.of(bytes:)) { return .integer(Int64(form.rawValue)) }
            return .integer(ISO8601.date(from: call.text(0)) == nil ? 0 : 6)
        }
        try database.createFunction(nfcFunction, argumentCount: 1) { call in
            guard call.type(0) == .text else { return call.value(0) }
            return .text(StringFolding.nfc(call.text(0)))
        }
    }
}
