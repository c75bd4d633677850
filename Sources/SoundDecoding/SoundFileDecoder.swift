package import SoundCore
import CSndFile
import Foundation

/// Decodes a sound file with libsndfile: WAV, AIFF, FLAC, Ogg Vorbis, Opus and
/// MP3 (whatever the installed libsndfile supports), to interleaved float32 at
/// the file's own sample rate.
///
/// Sample-rate conversion to the engine rate is not done here: the mixer's
/// per-voice resampler already interpolates for pitch, so it applies
/// `fileRate / engineRate` on top at no extra cost (see docs/architecture.md).
///
/// Threading: one instance is used by one thread at a time; it is never used on
/// the render thread. The streaming thread reads long sounds through the
/// ``AudioFrameSource`` conformance.
package final class SoundFileDecoder: AudioFrameSource {
    /// The file this decoder reads.
    package let path: String
    package let format: SourceFormat

    // The SNDFILE handle; owned by this object, closed in deinit.
    private let handle: OpaquePointer
    // The descriptor libsndfile reads when opened from a ``SoundFolder``
    // (closed in deinit, after the handle), else -1.
    private let descriptor: Int32

    /// Opens `path` for decoding.
    ///
    /// - Throws: `fileNotFound` when the file does not exist or cannot be read;
    ///   `invalidFile` when libsndfile does not recognise it as audio or its
    ///   header is inconsistent (zero channels, zero rate).
    package convenience init(path: String) throws(SoundEngineError) {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .fileNotFound("sound file '\(path)' does not exist or is not readable")
        }
        var info = SF_INFO()
        let handle = sf_open(path, Int32(SFM_READ), &info)
        try self.init(path: path, handle: handle, info: info, descriptor: -1)
    }

    /// Opens `path` for decoding as ``init(path:)`` does, or, with a
    /// `folder`, beneath it and through no symbolic link
    /// (``SoundFolder/openFile(_:)``), decoding from that descriptor
    /// (`sf_open_fd`): what a bank's streamed sound is opened with each time
    /// a voice plays it.
    /// - Throws: as ``init(path:)``; `fileNotFound` naming a link or a
    ///   path that leaves the folder.
    package convenience init(path: String, in folder: SoundFolder?) throws(SoundEngineError) {
        guard let folder else {
            try self.init(path: path)
            return
        }
        let fd = try folder.openFile(path)
        var info = SF_INFO()
        // SF_FALSE: the descriptor stays ours, closed by deinit or below, on every path.
        let handle = sf_open_fd(fd, Int32(SFM_READ), &info, 0)
        try self.init(path: path, handle: handle, info: info, descriptor: fd)
    }

    /// Takes over an opened handle (`nil`: libsndfile refused) and the
    /// descriptor under it; closes both and throws when it is not usable audio.
    private init(path: String, handle: OpaquePointer?, info: SF_INFO, descriptor: Int32) throws(SoundEngineError) {
        guard let handle else {
            let why = String(cString: sf_strerror(nil))
            if descriptor >= 0 { close(descriptor) }
            throw .invalidFile("sound file '\(path)' could not be decoded: \(why)")
        }
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(handle)
            if descriptor >= 0 { close(descriptor) }
            throw .invalidFile("sound file '\(path)' declares \(info.channels) channels at \(info.samplerate) Hz")
        }
        self.path = path
        self.handle = handle
        self.descriptor = descriptor
        // libsndfile reports a frame count for every seekable format; some
        // containers (streamed MP3) only estimate it, so readAll trusts EOF.
        let frames: Int? = info.seekable != 0 && info.frames > 0 ? Int(info.frames) : nil
        self.format = SourceFormat(sampleRate: Int(info.samplerate), channelCount: Int(info.channels), frameCount: frames)
    }

    deinit {
        sf_close(handle)
        if descriptor >= 0 { close(descriptor) }
    }

    package func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(SoundEngineError) -> Int {
        guard frames > 0 else { return 0 }
        let got = sf_readf_float(handle, buffer, sf_count_t(frames))
        if got < 0 || (got < frames && sf_error(handle) != SF_ERR_NO_ERROR) {
            throw .invalidFile("sound file '\(path)' is corrupt: \(String(cString: sf_strerror(handle)))")
        }
        return Int(got)
    }

    package func seek(toFrame frame: Int) throws(SoundEngineError) {
        guard frame >= 0 else { throw .invalidParameter("seek frame \(frame) is negative") }
        if sf_seek(handle, sf_count_t(frame), SEEK_SET) < 0 {
            throw .invalidParameter("cannot seek '\(path)' to frame \(frame): \(String(cString: sf_strerror(handle)))")
        }
    }

    /// Decodes the rest of the file into memory.
    ///
    /// - Throws: `invalidFile` if decoding fails part-way or the file holds no
    ///   audio at all.
    package func readAll() throws(SoundEngineError) -> DecodedAudio {
        let channels = format.channelCount
        // libsndfile allows up to 1024 channels; keep the scratch buffer ≤ 4 MB.
        let chunk = max(1, min(16_384, Self.maxReservedSamples / 8 / channels))
        var samples: [Float] = []
        // A header's frame count is a claim, not a fact: a corrupt FLAC can
        // declare 2^36 frames, and reserving that traps. Reserve at most
        // `maxReservedSamples` up front; a file that really is longer grows
        // the array as it decodes.
        if let frames = format.frameCount {
            let (claimed, overflow) = frames.multipliedReportingOverflow(by: channels)
            samples.reserveCapacity(overflow ? Self.maxReservedSamples : min(claimed, Self.maxReservedSamples))
        }
        var scratch = [Float](repeating: 0, count: chunk * channels)
        while true {
            let got = try scratch.withUnsafeMutableBufferPointer { buffer throws(SoundEngineError) in
                try read(into: buffer.baseAddress!, frames: chunk)
            }
            samples.append(contentsOf: scratch[0..<(got * channels)])
            if got < chunk { break }
        }
        guard !samples.isEmpty else { throw .invalidFile("sound file '\(path)' contains no audio frames") }
        return DecodedAudio(sampleRate: format.sampleRate, channelCount: channels, samples: samples)
    }

    /// Most samples `readAll` reserves before decoding (32 MB of float32).
    static let maxReservedSamples = 1 << 23

    /// Opens and fully decodes `path`.
    package static func decode(path: String) throws(SoundEngineError) -> DecodedAudio {
        try SoundFileDecoder(path: path).readAll()
    }
}
