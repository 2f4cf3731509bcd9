// What a floor worker hears and feels for each scan, without looking at the screen: one short high beep and a
// short buzz for a scan taken, two low tones and a long double buzz for one refused. WebAudio makes the tones
// (no sound file to fetch, works offline); `navigator.vibrate` where the device has it (Android).

type Signal = "accepted" | "refused";

const TONES: Record<Signal, { frequency: number; start: number; length: number }[]> = {
  accepted: [{ frequency: 1760, start: 0, length: 0.08 }],
  refused: [
    { frequency: 220, start: 0, length: 0.15 },
    { frequency: 165, start: 0.2, length: 0.25 },
  ],
};
const VIBRATIONS: Record<Signal, number[]> = { accepted: [40], refused: [150, 80, 150] };

let audio: AudioContext | undefined;

function play(signal: Signal) {
  // Made at the first scan: a scan's Enter is the user gesture a browser asks before it plays sound.
  audio ??= new AudioContext();
  if (audio.state === "suspended") void audio.resume();
  const now = audio.currentTime;
  for (const { frequency, start, length } of TONES[signal]) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = signal === "accepted" ? "sine" : "square";
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.2, now + start);
    gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(now + start);
    oscillator.stop(now + start + length);
  }
}

/** Sound and vibration for a scan's outcome; a device without either stays silent, never fails. */
export function signal(outcome: Signal) {
  try {
    play(outcome);
  } catch {
    // No audio output (or none allowed yet): the screen's message still says it.
  }
  navigator.vibrate?.(VIBRATIONS[outcome]);
}
