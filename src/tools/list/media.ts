/**
 * What `list` says of an image, PDF or notebook beside its name: the type,
 * and an image's pixel size (read from its header by sharp). Only names with
 * a media extension are opened, at most MEDIA_PROBES per listing, so a
 * folder of photos costs a bounded number of reads.
 */
import { join } from "node:path";
import { imageInfo } from "../../media/image.js";
import { isNotebookPath, sniffMedia } from "../../media/kind.js";
import type { TreeNode } from "../../workspace/walk.js";
import type { ToolContext } from "../define.js";

/** Files opened per listing for their type and size. */
export const MEDIA_PROBES = 100;

const MEDIA_NAME = /\.(png|jpe?g|gif|webp|pdf)$/i;

export interface MediaLabel {
  type: string;
  width?: number;
  height?: number;
}

function mediaFiles(nodes: TreeNode[], out: TreeNode[] = []): TreeNode[] {
  for (const node of nodes) {
    if (out.length >= MEDIA_PROBES) break;
    if (node.kind === "file" && (MEDIA_NAME.test(node.name) || isNotebookPath(node.name))) {
      out.push(node);
    }
    mediaFiles(node.children, out);
  }
  return out;
}

async function probe(context: ToolContext, node: TreeNode): Promise<MediaLabel | undefined> {
  if (isNotebookPath(node.name)) return { type: "notebook" };
  const bytes = await context.workspace.readFile(join(context.guard.root, node.rel));
  const kind = sniffMedia(bytes);
  if (kind?.kind === "pdf") return { type: kind.mime };
  if (kind?.kind !== "image") return undefined;
  try {
    const { width, height } = await imageInfo(bytes);
    return { type: kind.mime, width, height };
  } catch {
    return { type: `${kind.mime}, damaged` };
  }
}

/** The media files among the shown nodes, by rel, with their labels. */
export async function mediaLabels(
  context: ToolContext,
  top: TreeNode[],
): Promise<Map<string, MediaLabel>> {
  const labels = new Map<string, MediaLabel>();
  for (const node of mediaFiles(top)) {
    const label = await probe(context, node).catch(() => undefined);
    if (label) labels.set(node.rel, label);
  }
  return labels;
}

/** `image/png 1280×800`, `application/pdf`, `notebook`. */
export const describeMedia = (m: MediaLabel): string =>
  m.width === undefined ? m.type : `${m.type} ${m.width}×${m.height}`;
