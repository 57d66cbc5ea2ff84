import SiftEvaluation
import SiftSQLite

extension SiftSQLFunctions {
    public static let dateFunction = "sift_date"
    public static let nfcFunction = "sift_nfc"

    /// The functions reading columns of databases Sift did not create (``ForeignColumn``):
    ///
    /// - `sift_date(value, encoding)`: the date the value stands for, as seconds since 2001
    ///   (``ForeignDateEncoding/referenceSeconds(of:)``); NULL for NULL and for a value that is
    ///   no date.
    /// - `sift_nfc(value)`: text in NFC (`StringFolding.nfc`, the form the evaluator compares);
    ///   other values as they are.
    static func registerForeignColumnFunctions(on database: SQLiteDatabase) throws(SQLiteError) {
        try database.createFunction(dateFunction, argumentCount: 2) { call in
            guard call.type(1) == .text, let encoding = ForeignDateEncoding(rawValue: call.text(1)) else {
                throw EvaluationError(.invalidArgument,
                                      "\(dateFunction): the encoding must be one of \(ForeignDateEncoding.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return encoding.referenceSeconds(of: call.value(0)).map(SQLiteValue.real) ?? .null
        }
        try database.createFunction(nfcFunction, argumentCount: 1) { call in
            guard call.type(0) == .text else { return call.value(0) }
            return .text(StringFolding.nfc(call.text(0)))
        }
    }
}
