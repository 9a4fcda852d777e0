/**
 * The WebGPU adapter Deno finds (`navigator.gpu.requestAdapter()`), and whether it is a real
 * GPU or a software rasterizer. On a machine without a GPU, Mesa's lavapipe answers the
 * request: its `adapter.info` says `description: "llvmpipe (LLVM …)"` and
 * `isFallbackAdapter: true` (Deno 2.9.6 puts the flag on `info`, not on the adapter). Such an
 * adapter runs WebGPU code correctly at a fraction of the CPU's own speed, so the kit never
 * picks it by default (`backend.ts`).
 *
 * @module
 */

/** What the kit reads of an adapter. */
export interface AdapterInfo {
  /** `adapter.info.description` (the driver's name for the device), or the device id. */
  description: string;
  /** `adapter.info.vendor` (a PCI vendor id in decimal on Vulkan; `65541` is Mesa's own). */
  vendor: string;
  /** `adapter.info.architecture`. */
  architecture: string;
  /** `adapter.info.isFallbackAdapter` (WebGPU's word for a software implementation). */
  isFallbackAdapter: boolean;
  /** A software adapter: the fallback flag, Mesa's vendor id or a software driver's name. */
  software: boolean;
  /** `adapter.limits.maxBufferSize` in MiB. */
  maxBufferMiB: number;
  /** How many optional features the adapter has. */
  features: number;
}

/** Names software rasterizers give themselves: Mesa (llvmpipe, lavapipe, softpipe), Google's
 * SwiftShader, Microsoft's WARP ("Microsoft Basic Render Driver"). */
const SOFTWARE_NAMES = /llvmpipe|lavapipe|softpipe|swiftshader|basic render driver|software/i;

/** `VK_VENDOR_ID_MESA` (0x10005): the vendor id of Mesa's CPU drivers, which have no PCI id. */
const MESA_VENDOR_ID = 0x10005;

/**
 * Whether an adapter is a software one: its `isFallbackAdapter` flag, Mesa's vendor id, or a
 * software driver's name in its description or device.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSoftwareAdapter } from "./adapter.ts";
 * // lavapipe as Deno 2.9.6 reports it
 * assert(isSoftwareAdapter({ description: "llvmpipe (LLVM 15.0.6, 256 bits)", vendor: "65541",
 *   isFallbackAdapter: true }));
 * // SwiftShader without the flag set
 * assert(isSoftwareAdapter({ description: "SwiftShader Device (Subzero)", vendor: "6880" }));
 * assert(!isSoftwareAdapter({ description: "NVIDIA H200", vendor: "4318", isFallbackAdapter: false }));
 * ```
 */
export function isSoftwareAdapter(info: {
  description?: string;
  device?: string;
  vendor?: string;
  isFallbackAdapter?: boolean;
}): boolean {
  if (info.isFallbackAdapter === true) return true;
  const vendor = Number(info.vendor);
  if (vendor === MESA_VENDOR_ID || info.vendor?.toLowerCase() === "0x10005") return true;
  return SOFTWARE_NAMES.test(`${info.description ?? ""} ${info.device ?? ""}`);
}

/**
 * The Vulkan loader behind Deno's WebGPU complains on every adapter request when
 * XDG_RUNTIME_DIR is unset (as in CI and cron jobs): give it a private temporary one, removed
 * when the process ends (it left one empty folder in the temp folder per run before).
 */
function ensureRuntimeDir(): void {
  try {
    if (!Deno.env.get("XDG_RUNTIME_DIR")) {
      const dir = Deno.makeTempDirSync({ prefix: "qa-kit-xdg-" });
      Deno.env.set("XDG_RUNTIME_DIR", dir);
      globalThis.addEventListener("unload", () => {
        try {
          Deno.removeSync(dir, { recursive: true });
        } catch { /* already gone */ }
      });
    }
  } catch { /* no env or write permission: the warning stays, nothing else changes */ }
}

/**
 * The adapter `navigator.gpu.requestAdapter()` returns, or `undefined` when there is none
 * (no `navigator.gpu`, no driver, or the request fails).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { webGpuAdapter } from "./adapter.ts";
 * const a = await webGpuAdapter();
 * assert(a === undefined || typeof a.software === "boolean");
 * ```
 */
export async function webGpuAdapter(): Promise<AdapterInfo | undefined> {
  ensureRuntimeDir();
  const gpu = (navigator as Navigator & { gpu?: GPU }).gpu;
  if (!gpu) return undefined;
  const adapter = await gpu.requestAdapter().catch(() => null);
  if (!adapter) return undefined;
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  const isFallbackAdapter = info.isFallbackAdapter ??
    (adapter as GPUAdapter & { isFallbackAdapter?: boolean }).isFallbackAdapter ?? false;
  return {
    description: info.description || info.device || "(unnamed)",
    vendor: info.vendor,
    architecture: info.architecture,
    isFallbackAdapter,
    software: isSoftwareAdapter({ ...info, isFallbackAdapter }),
    maxBufferMiB: Math.round(adapter.limits.maxBufferSize / 2 ** 20),
    features: adapter.features.size,
  };
}

/** Returns true when a WebGPU adapter is available (a real GPU or a software one). */
export async function hasWebGpu(): Promise<boolean> {
  return (await webGpuAdapter()) !== undefined;
}
