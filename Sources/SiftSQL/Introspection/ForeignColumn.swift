import SiftStore

/// How a column of a database Sift did not create is read, and why its attribute has its type
/// (``ColumnTypeInference``). Fetches, predicates, sorts and the rows' values all read the
/// column through ``expression(_:)``, so SQL and the evaluator see the same values.
package struct ForeignColumn: Sendable, Encodable, Equatable {
    /// The attribute type chosen.
    package var type: AttributeType
    /// Dates held as numbers or text: read through `sift_date` in this encoding. Nil where
    /// the column is read as it is.
    package var dateEncoding: ForeignDateEncoding? = nil
    /// The storage classes (`typeof()`) the column is read from when only part of a large
    /// table was read to choose its type: a value of another class reads as nil, everywhere
    /// alike. Nil when every value was checked.
    package var storageClasses: [String]? = nil
    /// A Boolean column of a large table whose values beyond the rows read were not checked:
    /// only 0 and 1 are read (as NO and YES), anything else as nil, everywhere alike.
    package var readsOnlyZeroOrOne = false
    /// Text not in NFC was found: the column is read in NFC, the form the evaluator compares
    /// (text Sift writes is NFC already).
    package var normalizesText = false
    /// The column's declared type gives it numeric affinity, yet it holds text: SQLite would
    /// read a numeric-looking string compared with it as a number (`t >= '20'` as `t >= 20`), so
    /// the column is read as `+column`, which has no affinity (and so no index serves it).
    package var stripsAffinity = false
    /// A date column whose values are all text of one form (``TextDateForm``): compared with a
    /// constant date as text, so an index on it serves.
    package var textDates: TextDates? = nil
    /// Why: `declared STRING`, `declared INT; holds integer, text`, …
    package var reason: String

    /// The text of a date column in one ``TextDateForm``, and how far that is known.
    package struct TextDates: Sendable, Encodable, Equatable {
        package var form: TextDateForm
        /// Whether every value of the column is known to be of the form (the whole table was
        /// read, or every value checked): only then do comparisons read the text. Else only
        /// the rows read to choose the column's type were (the check comes when a comparison
        /// first needs it, ``ForeignSchema``).
        package var isVerified: Bool

        package init(form: TextDateForm, isVerified: Bool) {
            self.form = form
            self.isVerified = isVerified
        }
    }

    /// The expression reading the column `column`: `+"t0"."c"` (no affinity), `CASE WHEN
    /// typeof("t0"."c") IN ('integer', 'real') THEN "t0"."c" END`, `sift_date(…, 'unix')`,
    /// `sift_nfc(…)`.
    package func expression(_ column: SQLExpression) -> SQLExpression {
        if stripsAffinity && storageClasses == nil && dateEncoding == nil && !normalizesText { return .unary(.plus, column) }
        var value = column
        if let storageClasses { value = .case([(when: .storageClassIn(column, storageClasses), then: column)], otherwise: nil) }
        if readsOnlyZeroOrOne { value = .case([(when: .in(column, [.integer(0), .integer(1)]), then: column)], otherwise: nil) }
        if let dateEncoding {
            value = .function(.provided(.registered(.date)), [value, .string(dateEncoding.rawValue)])
        } else if normalizesText {
            value = .function(.provided(.registered(.nfc)), [value])
        }
        return value
    }

    /// Whether the column is read as it is stored (so its plain SQL, and an index on it, serve).
    package var isPlain: Bool { dateEncoding == nil && storageClasses == nil && !readsOnlyZeroOrOne && !normalizesText && !stripsAffinity }

    /// The form every value of the column is in, where comparisons may read its text
    /// (``TextDates/isVerified``).
    package var verifiedTextDateForm: TextDateForm? {
        guard let textDates, textDates.isVerified else { return nil }
        return textDates.form
    }

    package init(type: AttributeType, dateEncoding: ForeignDateEncoding? = nil, storageClasses: [String]? = nil, readsOnlyZeroOrOne: Bool = false, normalizesText: Bool = false, stripsAffinity: Bool = false, textDates: TextDates? = nil, reason: String) {
        self.type = type
        self.dateEncoding = dateEncoding
        self.storageClasses = storageClasses
        self.readsOnlyZeroOrOne = readsOnlyZeroOrOne
        self.normalizesText = normalizesText
        self.stripsAffinity = stripsAffinity
        self.textDates = textDates
        self.reason = reason
    }
}
