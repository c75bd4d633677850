import SoundCore
import Foundation
@testable import SoundEngine
import SoundBackend
import SoundContent
import SoundMixer
import SoundSession
import SoundServerSupport
import Synchronization
import Testing

/// Marker callbacks (Wwise `AK_Marker`), on the offline backend.
@Suite struct ContentMarkerTests {
    static let hero = GameObjectID(1)

    /// Every callback of one posting, in order.
    final class Log: Sendable {
        let items = ControlLock<[CallbackInfo]>([])
        var callback: @Sendable (CallbackInfo) -> Void { { [self] e in items.withLock { $0.append(e) } } }
        var all: [CallbackInfo] { items.withLock { $0 } }
    }

    static func rig(loop: Bool, stream: Bool = false) throws -> ContentRig {
        let rig = try ContentRig()
        let tick = BankSound(
            name: "tick", file: rig.sineFile("tick", seconds: 1), stream: stream, loop: loop,
            markers: [BankMarker(name: "half", time: 0.5), BankMarker(name: "quarter", time: 0.25)])
        try rig.engine.loadBank(
            Bank(
                name: "markers", folder: rig.folder, sounds: ["tick": tick],
                events: ["Tick": BankEvent(name: "Tick", actions: [BankAction(.play(object: "tick", fadeIn: .zero))])]))
        try rig.engine.registerGameObject(hero)
        return rig
    }

    @Test func markersArriveInOrderWhenTheirAudioIsRenderedThenTheEnd() throws {
        let rig = try Self.rig(loop: false)
        let log = Log()
        let playing = try rig.engine.postEvent("Tick", on: Self.hero, callback: log.callback)
        rig.render(Int(0.2 * Double(ContentRig.rate)))
        // Render past 0.25 s: "quarter" comes; "half" cannot have been crossed yet.
        rig.render(Int(0.1 * Double(ContentRig.rate)))
        #expect(eventually { !log.all.isEmpty })
        #expect(log.all == [.marker(playing, name: "quarter", sound: "tick")])
        #expect(rig.renderUntil { log.all.contains(.endOfEvent(playing)) })
        #expect(
            log.all == [
                .marker(playing, name: "quarter", sound: "tick"), .marker(playing, name: "half", sound: "tick"),
                .endOfEvent(playing),
            ])
    }

    @Test func aLoopingSoundCrossesItsMarkersEveryLap() throws {
        let rig = try Self.rig(loop: true)
        let log = Log()
        let playing = try rig.engine.postEvent("Tick", on: Self.hero, callback: log.callback)
        rig.render(Int(2.6 * Double(ContentRig.rate)))  // three laps begun, the third past its 0.5 s
        let quarter = CallbackInfo.marker(playing, name: "quarter", sound: "tick")
        let half = CallbackInfo.marker(playing, name: "half", sound: "tick")
        #expect(eventually { log.all.count == 6 })
        #expect(log.all == [quarter, half, quarter, half, quarter, half])
        try rig.engine.stop(playing)
        #expect(rig.renderUntil { log.all.last == .endOfEvent(playing) })
    }

    @Test func aStreamedSoundReportsItsMarkersEveryLapToo() throws {
        let rig = try Self.rig(loop: true, stream: true)
        let log = Log()
        let playing = try rig.engine.postEvent("Tick", on: Self.hero, callback: log.callback)
        let quarter = CallbackInfo.marker(playing, name: "quarter", sound: "tick")
        let half = CallbackInfo.marker(playing, name: "half", sound: "tick")
        // Rendered until the second lap's "half" has come (the stream decodes as it plays).
        #expect(rig.renderUntil { log.all.count >= 4 })
        #expect(log.all == [quarter, half, quarter, half])
        try rig.engine.stop(playing)
        #expect(rig.renderUntil { log.all.last == .endOfEvent(playing) })
        #expect(log.all.filter { $0 == .endOfEvent(playing) }.count == 1)
    }

    @Test func aMarkerPastTheEndOfItsFileRefusesTheBankNamingIt() throws {
        let rig = try ContentRig()
        let late = BankSound(name: "late", file: rig.sineFile("late", seconds: 0.1), markers: [BankMarker(name: "never", time: 2)])
        #expect {
            try rig.engine.loadBank(Bank(name: "late", folder: rig.folder, sounds: ["late": late]))
        } throws: { error in
            "\(error)".contains("never") && "\(error)".contains("past the end")
        }
    }
}
