import { useEffect, useRef, useState } from "preact/hooks";
import { ErrorMessage } from "./error-message";

/** The Barcode Detection API, where the browser offers it (Chrome on Android, macOS, ChromeOS): not in TS's DOM lib yet. */
type Detector = new () => { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> };
const detectorClass = () => (window as unknown as { BarcodeDetector?: Detector }).BarcodeDetector;

/** Whether this browser can read barcodes from the camera; elsewhere the keyboard-wedge field is the only way. */
export const cameraOffered = () => "BarcodeDetector" in window;

/** How often a video frame is looked at: often enough to feel instant, rarely enough to spare a phone's battery. */
const LOOK_MS = 200;

/**
 * The back camera's picture, read by `BarcodeDetector` until it finds a code: that code is handed to `onCode` once
 * (as if typed and Enter pressed) and the camera is switched off. Unmounting switches it off too.
 */
export function CameraScan({ onCode, onClose }: { onCode: (code: string) => void; onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  // The camera outlives renders: a found code goes to the newest onCode (the screen's step may have moved on).
  const latest = useRef(onCode);
  latest.current = onCode;
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let stream: MediaStream | undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const Detector = detectorClass();
    const start = async () => {
      if (!Detector) return;
      const detector = new Detector();
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
      const element = video.current;
      if (stopped || !element) return;
      element.srcObject = stream;
      await element.play();
      const look = async () => {
        if (stopped) return;
        const [found] = await detector.detect(element);
        if (found?.rawValue) {
          stopped = true;
          latest.current(found.rawValue);
          onClose();
        } else timer = setTimeout(look, LOOK_MS);
      };
      await look();
    };
    start().catch((failure: unknown) =>
      setError(
        new Error(`The camera cannot read codes here: ${String((failure as Error)?.message ?? failure)}`),
      ),
    );
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);
  return (
    <div class="camera-scan">
      <video ref={video} muted playsInline aria-label="Camera picture: hold the code in view" />
      <ErrorMessage error={error} />
      <button type="button" class="button" onClick={onClose}>
        Stop camera
      </button>
    </div>
  );
}
