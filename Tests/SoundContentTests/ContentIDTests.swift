import SoundContent
import Testing

@Suite struct ContentIDTests {
    @Test func idsAreFNV1OfTheLowercasedName() {
        // FNV-1 32-bit of "" is the offset basis; of "a" it is 0x050C5D7E.
        #expect(ContentID("").rawValue == 2_166_136_261)
        #expect(ContentID("a").rawValue == 0x050C_5D7E)
        #expect(ContentID("Play_Footstep") == ContentID("play_footstep"))
    }

    /// FNV-1 over `lowercased()`'s bytes: the definition the fast ASCII path must match.
    static func reference(_ name: String) -> UInt32 {
        name.lowercased().utf8.reduce(UInt32(2_166_136_261)) { ($0 &* 16_777_619) ^ UInt32($1) }
    }

    @Test(arguments: [
        "", "a", "Z", "@[`{", "Play_Footstep", "AZaz09_-. ~\u{7F}", "Ärger", "straße", "İstanbul", "ΣΊΣΥΦΟΣ",
        "mixed_Ä_Tail", "e\u{301}", "🎵Music", "\u{0}",
    ])
    func theASCIIFastPathHashesWhatLowercasedGives(name: String) {
        #expect(ContentID(name).rawValue == Self.reference(name), "\(name)")
    }

    @Test func everyASCIIByteLowercasesAsTheStandardLibraryDoes() {
        for byte in UInt8(0)..<0x80 {
            let name = String(UnicodeScalar(byte))
            #expect(ContentID(name).rawValue == Self.reference(name), "byte \(byte)")
        }
    }

    @Test func namesMatchIgnoringCaseAsTheirIDsDo() {
        #expect(ContentID.sameName("Play_Footstep", "play_footstep"))
        #expect(ContentID.sameName("", ""))
        #expect(!ContentID.sameName("Play", "Play_"))
        #expect(!ContentID.sameName("Play_", "Play"))
        #expect(!ContentID.sameName("s77998", "s390206"))  // same FNV-1, different names
        #expect(!ContentID.sameName("@", "`"))  // 0x40 and 0x60 are not a case pair
        #expect(ContentID.sameName("ÄRGER", "ärger"))
        #expect(ContentID.sameName("Tür_A", "tür_a"))
        #expect(!ContentID.sameName("Tür_A", "tur_a"))
        #expect(ContentID.sameName("e\u{301}", "\u{E9}"))  // canonically equivalent, as == says
        #expect(!ContentID.sameName("e", "e\u{301}"))
    }

    @Test func curvesInterpolateAndHoldOutside() {
        let c = Curve(points: [(0, -10), (10, 0), (20, 0)])
        #expect(c.value(at: -5) == -10)
        #expect(c.value(at: 5) == -5)
        #expect(c.value(at: 30) == 0)
        let step = Curve(points: [(0, 1), (10, 2)], shape: .constant)
        #expect(step.value(at: 9.9) == 1)
    }
}
