import SoundEffects
import SoundContent
import SoundCore

/// The values of a bank, held to the ranges a bank file is held to
/// (``BankLimits``): a ``Bank`` built in code reaches ``BankCheck`` without
/// the parser, and a NaN volume, an infinite weight or a delay of a century
/// must not reach the mix, the random picker or the mixer clock. The first
/// value out of range is refused with `invalidParameter` naming the bank,
/// the definition and the field.
extension BankCheck {
    func values() throws(SoundEngineError) {
        for sound in bank.sounds.values.sorted(by: { $0.name < $1.name }) {
            let field = "sound '\(sound.name)'"
            try number(sound.volumeDB, BankLimits.volumeDB, "\(field) volumeDB")
            try number(sound.pitchCents, BankLimits.pitchCents, "\(field) pitchCents")
            try number(Double(sound.priority), BankLimits.priority.doubles, "\(field) priority")
            if let lfe = sound.lfeDB { try number(lfe, BankLimits.volumeDB, "\(field) lfeDB") }
            for marker in sound.markers {
                try number(marker.time, BankLimits.seconds, "\(field) marker '\(marker.name)' time")
            }
            if sound.auxSends.count > BankLimits.auxSends {
                throw refusal("\(field) has \(sound.auxSends.count) auxSends: at most \(BankLimits.auxSends)")
            }
            for (index, send) in sound.auxSends.enumerated() {
                try number(send.volumeDB, BankLimits.volumeDB, "\(field) auxSends[\(index)] volumeDB")
                if sound.auxSends[..<index].contains(where: { $0.bus == send.bus }) {
                    throw refusal("\(field) auxSends[\(index)] sends to bus '\(send.bus)' again")
                }
            }
        }
        for container in bank.containers.values.sorted(by: { $0.name < $1.name }) {
            let field = "container '\(container.name)'"
            try number(container.volumeDB, BankLimits.volumeDB, "\(field) volumeDB")
            try number(container.pitchCents, BankLimits.pitchCents, "\(field) pitchCents")
            if case .random(let weights, let avoid) = container.kind {
                for (index, weight) in weights.enumerated() {
                    try number(weight, BankLimits.weight, "\(field) weights[\(index)]")
                }
                try number(Double(avoid), BankLimits.avoidRepeat.doubles, "\(field) avoidRepeatCount")
            }
        }
        for bus in bank.buses {
            try number(bus.volumeDB, BankLimits.volumeDB, "bus '\(bus.name)' volumeDB")
            for (index, rule) in bus.ducking.enumerated() {
                let field = "bus '\(bus.name)' ducking[\(index)]"
                try number(rule.volumeDB, BankLimits.duckingDB, "\(field) volumeDB")
                try time(rule.attack, "\(field) attack")
                try time(rule.release, "\(field) release")
            }
            if bus.effects.count > BankLimits.busEffects {
                throw refusal("bus '\(bus.name)' has \(bus.effects.count) effects: at most \(BankLimits.busEffects)")
            }
            for (index, effect) in bus.effects.enumerated() {
                do throws(EffectParameterError) {
                    _ = try effect.parameters.validated(as: effect.kind)
                } catch {
                    throw refusal("bus '\(bus.name)' effects[\(index)]: \(error.description)")
                }
                if effect.sidechain != nil && effect.kind != .compressor {
                    throw refusal("bus '\(bus.name)' effects[\(index)]: a sidechain keys a compressor only")
                }
            }
        }
        for attenuation in bank.attenuations.values.sorted(by: { $0.name < $1.name }) {
            let field = "attenuation '\(attenuation.name)'"
            try curve(attenuation.volume, x: BankLimits.distance, y: BankLimits.volumeDB, "\(field) volume")
            if let lowPass = attenuation.lowPass {
                try curve(lowPass, x: BankLimits.distance, y: BankLimits.lowPassHz, "\(field) lowPass")
            }
            if let spread = attenuation.spread {
                try curve(spread, x: BankLimits.distance, y: BankLimits.spreadPercent, "\(field) spread")
            }
            if let auxSend = attenuation.auxSend {
                try curve(auxSend, x: BankLimits.distance, y: BankLimits.volumeDB, "\(field) auxSend")
            }
        }
        for rtpc in bank.rtpcs.values.sorted(by: { $0.name < $1.name }) {
            try rtpcValues(rtpc)
        }
        for group in bank.stateGroups.values.sorted(by: { $0.name < $1.name }) {
            let field = "state group '\(group.name)'"
            try time(group.transition, "\(field) transition")
            for (state, buses) in group.busVolumes.sorted(by: { $0.key < $1.key }) {
                for (bus, db) in buses.sorted(by: { $0.key < $1.key }) {
                    try number(db, BankLimits.volumeDB, "\(field) busVolumes['\(state)']['\(bus)']")
                }
            }
        }
        for event in bank.events.values.sorted(by: { $0.name < $1.name }) {
            for (index, action) in event.actions.enumerated() {
                try actionValues(action, "event '\(event.name)' actions[\(index)]")
            }
        }
    }

    private func rtpcValues(_ rtpc: BankRTPC) throws(SoundEngineError) {
        let field = "RTPC '\(rtpc.name)'"
        try number(rtpc.range.lowerBound, BankLimits.rtpcValue, "\(field) range.lowerBound")
        try number(rtpc.range.upperBound, BankLimits.rtpcValue, "\(field) range.upperBound")
        try number(rtpc.defaultValue, rtpc.range, "\(field) defaultValue")
        for (index, binding) in rtpc.bindings.enumerated() {
            let y: ClosedRange<Double>
            switch binding.target {
            case .volume, .busVolume, .auxSendVolume: y = BankLimits.volumeDB
            case .pitch: y = BankLimits.pitchCents
            case .lowPass: y = BankLimits.lowPassHz
            case .effectParameter(let bus, let slot, let parameter):
                let info = effect(on: bus, slot)?.kind.parameters.first { $0.name == parameter }
                y = info?.bankRange ?? BankLimits.rtpcValue
            }
            try curve(binding.curve, x: BankLimits.rtpcValue, y: y, "\(field) bindings[\(index)] curve")
        }
    }

    private func actionValues(_ action: BankAction, _ field: String) throws(SoundEngineError) {
        try time(action.delay, "\(field) delay")
        switch action.kind {
        case .play(_, let fade): try time(fade, "\(field) fadeIn")
        case .stop(_, let fade, _), .stopAll(let fade, _): try time(fade, "\(field) fadeOut")
        case .pause(_, let fade, _), .resume(_, let fade, _): try time(fade, "\(field) fade")
        case .setVolume(_, let db, let fade, _), .setBusVolume(_, let db, let fade):
            try number(db, BankLimits.volumeDB, "\(field) volumeDB")
            try time(fade, "\(field) fade")
        case .setState, .setSwitch, .post: break
        }
    }

    /// A curve as a bank file's: at least one point, every `x` and `y` in
    /// range (so finite), `x` strictly increasing.
    private func curve(_ curve: Curve, x: ClosedRange<Double>, y: ClosedRange<Double>, _ field: String)
        throws(SoundEngineError)
    {
        guard !curve.points.isEmpty else { throw refusal("\(field) has no points: a curve needs at least one") }
        for (index, point) in curve.points.enumerated() {
            try number(point.x, x, "\(field) points[\(index)].x")
            try number(point.y, y, "\(field) points[\(index)].y")
            if index > 0, point.x <= curve.points[index - 1].x {
                throw refusal("\(field) points[\(index)].x = \(point.x): x must increase from point to point")
            }
        }
    }

    private func number(_ value: Double, _ range: ClosedRange<Double>, _ field: String) throws(SoundEngineError) {
        guard range.contains(value) else {  // NaN is in no range
            throw refusal("\(field) = \(value): must be \(range.lowerBound)…\(range.upperBound)")
        }
    }

    private func time(_ duration: Duration, _ field: String) throws(SoundEngineError) {
        try TimeArgument.check(duration, "bank '\(bank.name)': \(field)")
    }

    private func refusal(_ what: String) -> SoundEngineError { .invalidParameter("bank '\(bank.name)': \(what)") }
}

extension ClosedRange<Int> {
    /// The same bounds as `Double`s.
    fileprivate var doubles: ClosedRange<Double> { Double(lowerBound)...Double(upperBound) }
}
