// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import {
  base64DecodedBytes,
  createDownloadBlob,
  fallbackFileName,
  maximumDownloadBytes,
  maximumFileNameLength,
  planDownload,
  sanitiseFileName,
} from "./download-files";

function embeddedText(uri: string, text: string, mimeType = "text/plain") {
  return { type: "resource", resource: { uri, text, mimeType } };
}

describe("sanitiseFileName", () => {
  it("takes the last path segment, without query or fragment", () => {
    expect(sanitiseFileName("file:///exports/2026/report.csv")).toBe("report.csv");
    expect(sanitiseFileName("https://example.com/a/b/chart.png?size=2#top")).toBe("chart.png");
    expect(sanitiseFileName("ui://budget/summary.json")).toBe("summary.json");
  });

  it("cannot climb directories or hide files", () => {
    expect(sanitiseFileName("file:///tmp/../../etc/passwd")).toBe("passwd");
    expect(sanitiseFileName("..")).toBe(fallbackFileName);
    expect(sanitiseFileName("x/..%2F..%2Fsecret.txt")).toBe("secret.txt");
    expect(sanitiseFileName("x/%2e%2e%5cevil.bat")).toBe("evil.bat");
    expect(sanitiseFileName("dir\\sub\\notes.txt")).toBe("notes.txt");
    expect(sanitiseFileName(".bashrc")).toBe("bashrc");
  });

  it("strips control characters and characters file systems refuse", () => {
    expect(sanitiseFileName("x/re\u0000po\u001frt.txt")).toBe("report.txt");
    expect(sanitiseFileName("x/invoice\u202etxt.exe")).toBe("invoicetxt.exe");
    expect(sanitiseFileName("x/a%0Ab%0Dc.txt")).toBe("abc.txt");
    expect(sanitiseFileName('x/what?*:"<>|.txt')).toBe("what");
    expect(sanitiseFileName('x/a*b:c"d<e>f|g.txt')).toBe("abcdefg.txt");
  });

  it("caps the length at 100 characters, keeping the extension", () => {
    const name = sanitiseFileName(`x/${"a".repeat(300)}.csv`);
    expect(name).toHaveLength(maximumFileNameLength);
    expect(name.endsWith(".csv")).toBe(true);
  });

  it("falls back when nothing usable is left", () => {
    expect(sanitiseFileName("")).toBe(fallbackFileName);
    expect(sanitiseFileName("https://example.com/")).toBe("example.com");
    expect(sanitiseFileName("data:")).toBe(fallbackFileName);
    expect(sanitiseFileName(undefined)).toBe(fallbackFileName);
  });
});

describe("planDownload", () => {
  it("lists sanitised names and sizes of embedded text, blobs and links", () => {
    const plan = planDownload([
      embeddedText("file:///out/héllo.txt", "héllo"),
      {
        type: "resource",
        resource: { uri: "file:///out/pic.png", blob: "AAECAw==", mimeType: "image/png" },
      },
      { type: "resource_link", uri: "https://example.com/big.zip", name: "big", size: 1000 },
      { type: "resource_link", uri: "javascript:alert(1)", name: "bad" },
    ]);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.items.map((item) => [item.name, item.bytes])).toEqual([
      ["héllo.txt", 6],
      ["pic.png", 4],
      ["big.zip", 1000],
      ["javascriptalert(1)", null],
    ]);
    expect(plan.items[2]).toMatchObject({
      kind: "link",
      openable: true,
      url: "https://example.com/big.zip",
    });
    expect(plan.items[3]).toMatchObject({ kind: "link", openable: false });
    expect(plan.totalBytes).toBe(1010);
  });

  it("refuses more than 10 MB in total, counting declared link sizes", () => {
    const half = "a".repeat(maximumDownloadBytes / 2);
    expect(planDownload([embeddedText("x/a.txt", half), embeddedText("x/b.txt", half)]).ok).toBe(
      true,
    );
    const over = planDownload([embeddedText("x/a.txt", half), embeddedText("x/b.txt", `${half}a`)]);
    expect(over).toEqual({ ok: false, reason: expect.stringMatching(/more than 10 MB/) });
    const link = planDownload([
      {
        type: "resource_link",
        uri: "https://example.com/huge",
        name: "huge",
        size: maximumDownloadBytes + 1,
      },
    ]);
    expect(link.ok).toBe(false);
  });

  it("measures base64 blobs by their decoded size", () => {
    expect(base64DecodedBytes("AAECAw==")).toBe(4);
    expect(base64DecodedBytes("AAECAwQ=")).toBe(5);
    expect(base64DecodedBytes("AAECAwQF")).toBe(6);
    const blob = "A".repeat(Math.ceil(((maximumDownloadBytes + 3) * 4) / 3));
    expect(planDownload([{ type: "resource", resource: { uri: "x/big.bin", blob } }]).ok).toBe(
      false,
    );
  });

  it("refuses empty requests and unknown items", () => {
    expect(planDownload([]).ok).toBe(false);
    expect(planDownload("nothing").ok).toBe(false);
    expect(planDownload([{ type: "image", data: "AA==", mimeType: "image/png" }]).ok).toBe(false);
    expect(planDownload([{ type: "resource", resource: { uri: "x/a" } }]).ok).toBe(false);
  });
});

describe("createDownloadBlob", () => {
  it("builds the Blob of text and of base64 content", async () => {
    const text = createDownloadBlob({
      kind: "embedded",
      name: "a.txt",
      mimeType: "text/plain",
      bytes: 2,
      content: { text: "hi" },
    });
    expect(text.type).toBe("text/plain");
    expect(await text.text()).toBe("hi");
    const binary = createDownloadBlob({
      kind: "embedded",
      name: "b.bin",
      mimeType: "application/octet-stream",
      bytes: 4,
      content: { base64: "AAECAw==" },
    });
    expect([...new Uint8Array(await binary.arrayBuffer())]).toEqual([0, 1, 2, 3]);
  });
});
