import SoundContent
import Testing

@Suite struct ContentIDTests {
    @Test func idsAreFNV1OfTheLowercasedName() {
        // FNV-1 32-bit of "" is the offset basis; of "a" it is 0x050C5D7E.
        #expect(ContentID("").rawValue == 2_166_136_261)
        #expect(ContentID("a").rawValue == 0x050C_5D7E)
        #expect(ContentID("Play_Footstep") == ContentID("play_footstep"))
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
