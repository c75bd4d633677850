import SoundContent
import Testing

@Suite struct BankMarkerTests {
    @Test func markersParseSortedByTime() throws {
        let json = bankJSON(sounds: #"{"step": {"file": "step.wav", "markers": {"land": 0.25, "lift": 0.05}}}"#)
        let bank = try #require(parsed(json))
        #expect(bank.sounds["step"]?.markers == [BankMarker(name: "lift", time: 0.05), BankMarker(name: "land", time: 0.25)])
    }

    @Test func aNegativeMarkerTimeIsReportedAtItsPath() {
        expectIssue(
            bankJSON(sounds: #"{"step": {"file": "step.wav", "markers": {"land": -1}}}"#),
            at: "$.sounds.step.markers.land", mentioning: ["-1", "seconds"])
    }

    @Test func markersMustBeAnObject() {
        expectIssue(
            bankJSON(sounds: #"{"step": {"file": "step.wav", "markers": [0.5]}}"#),
            at: "$.sounds.step.markers", mentioning: ["markers", "object"])
    }
}
