/// The top-level keys seen in a file read in chunks, in the input's order, exactly as one
/// ``JSONRecordReader`` over the whole input collects them (``JSONRecordReader/keysSeen``):
/// each chunk's reader logs the keys of each record (``JSONRecordReader/logsKeyNotes``), and
/// they are replayed here record by record, stopping as the reader stops (past 10,000 keys, or
/// when ``collectsKeys`` is turned off).
package final class KeysSeenReplay {
    package var collectsKeys: Bool
    package private(set) var keysSeen: Set<String> = []

    package init(collectsKeys: Bool) { self.collectsKeys = collectsKeys }

    /// Adds one record's logged keys (``JSONRecordReader/takeKeyNotes()``).
    package func replay(_ notes: [[String]]) {
        for keys in notes {
            guard collectsKeys else { return }
            keysSeen.formUnion(keys)
            if keysSeen.count >= JSONScanWorkspace.mostKeysSeen { collectsKeys = false }
        }
    }
}
