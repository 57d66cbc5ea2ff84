/// Sectioned results printed as the store reads them: each section announced with its size
/// (``begin(_:)``), then its results one at a time (``write(_:)``), then ``finish()`` — so a
/// million objects in a few sections are never all held at once.
///
/// When an error stops the results midway, ``abandon()`` ends what was printed so that it
/// stays well-formed, as ``ResultRenderer/abandon()`` does.
protocol SectionStream {
    mutating func begin(_ section: RecordSection)
    mutating func write(_ match: Match)
    mutating func finish()
    mutating func abandon()
}

extension SectionStream {
    /// Sections known whole (`sift filter --section-by`), written as if they came one by one,
    /// then the end: the text the stream prints for them as a store reads them.
    mutating func write(_ sections: [MatchSection]) {
        for section in sections {
            begin(RecordSection(name: section.name, indexTitle: section.indexTitle, count: section.matches.count))
            for match in section.matches { write(match) }
        }
        finish()
    }
}

/// The formats that need every result before they print (table and csv: their columns are
/// the union of all results' keys) get the sections whole, at the end.
struct CollectedSections: SectionStream {
    private var renderer: any ResultRenderer
    private var sections: [MatchSection] = []
    private var current: (section: RecordSection, matches: [Match])?

    init(_ renderer: any ResultRenderer) { self.renderer = renderer }

    mutating func begin(_ section: RecordSection) {
        close()
        current = (section, [])
    }

    mutating func write(_ match: Match) {
        current?.matches.append(match)
    }

    mutating func finish() {
        close()
        renderer.writeSections(sections)
    }

    /// Nothing was printed: there is nothing to close.
    mutating func abandon() {}

    private mutating func close() {
        guard let current else { return }
        sections.append(MatchSection(name: current.section.name, indexTitle: current.section.indexTitle, matches: current.matches))
        self.current = nil
    }
}
