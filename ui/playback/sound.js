// Short tones made by the Web Audio API: oscillators and gains, no audio files, so they play
// offline and under the exported page's policy (it lets the page fetch nothing). The replay
// (runsound.js), the figure's walk by arrow keys (figurekeys.js) and the charts played as
// sound (chartwalk.js) all sound through one Sound, which is off until the reader turns it on
// in "Your settings", at the reader's volume.
//
// A browser starts an audio context only after the reader has pressed something on the page:
// the context is made at the first sound asked for, which always follows a click or a key.
// Every sound is scheduled by `play`, which also writes what it scheduled into `scheduled`
// (kind, pitch, start, length): the tests read the sounds there, as numbers.
// This module imports nothing: the app's pages carry it too, written into their script
// (ui/page_assets.py).

/** The pitch of the middle of the scale: a point on the boundary, a chart's middle value. */
export const MIDDLE_HZ = 440;
/** How many of the latest scheduled sounds `scheduled` keeps. */
const KEPT = 2000;
/** The loudest a sound gets, at volume 100 (a sum of overlapping voices stays under 1). */
const PEAK = 0.3;

/**
 * Each kind of sound: its wave, its length in seconds, and a fixed pitch for the kinds that have
 * one. A step's and a point's tone are plain (sine); an update is a low knock (square) that
 * follows the step's tone; the line's turn a glide and an epoch's error a longer tone, both
 * with the brighter triangle wave; a chart's values plain tones.
 */
export const VOICES = {
  step: { wave: "sine", seconds: 0.08 },
  point: { wave: "sine", seconds: 0.12 },
  update: { wave: "square", seconds: 0.06, hz: 110 },
  turn: { wave: "triangle", seconds: 0.22 },
  epoch: { wave: "triangle", seconds: 0.2 },
  chart: { wave: "sine", seconds: 0.11 },
};

/**
 * The pitch of u in [−1, 1] (clipped) in Hz: MIDDLE_HZ · 2^(octaves · u), from an octave below
 * the middle (220 Hz) to an octave above it (880 Hz) by default.
 */
export function pitch(u, octaves = 1) {
  const clipped = Math.max(-1, Math.min(1, Number.isFinite(u) ? u : 0));
  return MIDDLE_HZ * 2 ** (octaves * clipped);
}

export class Sound {
  /** `on`: whether the replay's own sounds play; `volume`: 0 to 100. */
  constructor({ on = false, volume = 50 } = {}) {
    this.on = on;
    this.volume = volume;
    this.scheduled = [];
    this.context = null;
    this.live = new Set();
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    this.available = typeof Context === "function";
    this._Context = Context;
  }

  /** The audio context, made (and woken) at the first sound. */
  _audio() {
    if (!this.available) return null;
    if (!this.context) {
      this.context = new this._Context();
      this.master = this.context.createGain();
      this.master.connect(this.context.destination);
    }
    if (this.context.state === "suspended") this.context.resume().catch(() => {});
    this.master.gain.value = (PEAK * this.volume) / 100;
    return this.context;
  }

  /**
   * Schedule a sound of `kind` (VOICES) at `hz` (gliding to `to`, if given), `delay` seconds from
   * now; `tag` (the step, the point, the chart's series) goes with it into `scheduled`.
   * Nothing sounds while the sound is off, unless `always` (a chart the reader asked to hear).
   * Returns the scheduled entry, or null.
   */
  play(kind, hz, { to = null, delay = 0, tag = {}, always = false } = {}) {
    if (!(this.on || always) || this.volume <= 0) return null;
    const context = this._audio();
    if (!context) return null;
    const voice = VOICES[kind];
    const start = context.currentTime + 0.01 + delay;
    const end = start + voice.seconds;
    const oscillator = context.createOscillator();
    oscillator.type = voice.wave;
    oscillator.frequency.setValueAtTime(hz, start);
    if (to !== null) oscillator.frequency.exponentialRampToValueAtTime(to, end);
    // a short rise and fall: a tone cut at full level clicks
    const envelope = context.createGain();
    envelope.gain.setValueAtTime(0, start);
    envelope.gain.linearRampToValueAtTime(1, start + 0.005);
    envelope.gain.setValueAtTime(1, end - 0.02);
    envelope.gain.linearRampToValueAtTime(0, end);
    oscillator.connect(envelope).connect(this.master);
    oscillator.start(start);
    oscillator.stop(end + 0.01);
    this.live.add(oscillator);
    oscillator.onended = () => this.live.delete(oscillator);
    const entry = { kind, hz, to, at: start, seconds: voice.seconds, volume: this.volume, ...tag };
    this.scheduled.push(entry);
    if (this.scheduled.length > KEPT) this.scheduled.splice(0, this.scheduled.length - KEPT);
    return entry;
  }

  /** `play` at the pitch of u in [−1, 1] (`pitch`): where a point or a value lies on the scale. */
  playAt(kind, u, options = {}) {
    return this.play(kind, pitch(u), options);
  }

  /** Silence every sound scheduled and not yet over (a chart's contour, when stopped). */
  stop() {
    for (const oscillator of this.live) {
      try {
        oscillator.stop();
      } catch {
        // not started yet in some browsers' view: it is dropped with the set below
      }
    }
    this.live.clear();
  }
}
