/**
 * Where frames come from: the built-in animated test scene (the same generator the `shapes` model was trained
 * on, models/train/shapes-scene.ts, so its true boxes are known), or the camera.
 */
import { generateScene, renderScene, sceneAt, type SceneObject, type SceneSpec } from '../../models/train/shapes-scene.ts';

export interface Frame {
  /** The frame as drawn, for showing it with its boxes once the answer arrives. */
  readonly bitmap: ImageBitmap;
  readonly width: number;
  readonly height: number;
  /** Known boxes (the test scene only). */
  readonly truth: readonly SceneObject[] | undefined;
}

export interface FrameSource {
  readonly kind: 'scene' | 'camera';
  /** Draws the current frame into `canvas` (resized to the frame) and describes it. */
  capture(canvas: HTMLCanvasElement): Promise<Frame>;
  stop(): void;
}

/** The animated scene: shapes move and bounce; drawn at 4x (640x480) like a camera frame. */
export class SceneSource implements FrameSource {
  readonly kind = 'scene';
  private readonly spec: SceneSpec;
  private readonly started = performance.now();

  constructor(
    seed: number,
    private readonly scale = 4,
  ) {
    this.spec = generateScene(seed);
  }

  async capture(canvas: HTMLCanvasElement): Promise<Frame> {
    const t = (performance.now() - this.started) / 1000;
    const r = renderScene(sceneAt(this.spec, t), this.scale);
    const rgba = new Uint8ClampedArray(r.width * r.height * 4);
    for (let p = 0, q = 0; p < r.pixels.length; p += 3, q += 4) {
      rgba[q] = r.pixels[p] as number;
      rgba[q + 1] = r.pixels[p + 1] as number;
      rgba[q + 2] = r.pixels[p + 2] as number;
      rgba[q + 3] = 255;
    }
    const image = new ImageData(rgba, r.width, r.height);
    canvas.width = r.width;
    canvas.height = r.height;
    canvas.getContext('2d')?.putImageData(image, 0, 0);
    return { bitmap: await createImageBitmap(image), width: r.width, height: r.height, truth: r.objects };
  }

  stop(): void {}
}

export class CameraSource implements FrameSource {
  readonly kind = 'camera';
  private constructor(
    private readonly video: HTMLVideoElement,
    private readonly stream: MediaStream,
  ) {}

  /** Undefined (with the reason) when there is no camera or no permission. */
  static async open(): Promise<CameraSource | string> {
    if (navigator.mediaDevices?.getUserMedia === undefined) return 'this browser offers no camera API (an insecure origin, or no camera support)';
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: false });
      const video = document.createElement('video');
      video.muted = true;
      video.playsInline = true;
      video.srcObject = stream;
      await video.play();
      return new CameraSource(video, stream);
    } catch (err) {
      return `no camera: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  async capture(canvas: HTMLCanvasElement): Promise<Frame> {
    const w = this.video.videoWidth || 640;
    const h = this.video.videoHeight || 480;
    canvas.width = w;
    canvas.height = h;
    canvas.getContext('2d')?.drawImage(this.video, 0, 0, w, h);
    return { bitmap: await createImageBitmap(canvas), width: w, height: h, truth: undefined };
  }

  stop(): void {
    for (const t of this.stream.getTracks()) t.stop();
  }
}

export async function encodeJpeg(canvas: HTMLCanvasElement, quality = 0.85): Promise<Uint8Array> {
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
  if (blob === null) throw new Error('the browser could not encode the frame as JPEG');
  return new Uint8Array(await blob.arrayBuffer());
}
