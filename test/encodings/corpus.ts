/**
 * Real text in each legacy encoding splice reads: short passages written for
 * these tests (source files with comments and strings in the language the
 * encoding serves), encoded with iconv-lite at test time. `config` says the
 * encoding in the project's .editorconfig where detection alone is unsure
 * (single-byte encodings cannot be told apart from a few accented letters).
 */
import iconv from "iconv-lite";
import type { Encoding } from "../../src/text/encoding.js";

export interface Sample {
  encoding: Encoding;
  file: string;
  text: string;
  /** A replacement for line 2 in the same script. */
  line2: string;
  /** Whether .editorconfig must name the encoding (detection alone is unsure). */
  config?: boolean;
  bom?: boolean;
}

export const CORPUS: Sample[] = [
  {
    encoding: "windows-1252",
    file: "Form1.vb",
    config: true,
    text: '\' Fenêtre principale — données de l\'exercice\r\nDim café As String = "Crème brûlée à 5 €"\r\nDim größe As Integer = 1 \' Größe in Zoll\r\nMsgBox("Ça marche déjà!")\r\n',
    line2: 'Dim café As String = "Œuvre naïve, « guillemets » ‰"',
  },
  {
    encoding: "iso-8859-1",
    file: "lisezmoi.txt",
    config: true,
    text: "Le coeur a ses raisons que la raison ne connaît point.\nÀ vaincre sans péril, on triomphe sans gloire.\nÜber allen Gipfeln ist Ruh.\n",
    line2: "Heureux qui, comme Ulysse, a fait un beau voyage.",
  },
  {
    encoding: "shift_jis",
    file: "main.c",
    text: '/* 吾輩は猫である。名前はまだ無い。 */\nconst char *greeting = "こんにちは、世界";\n/* どこで生れたかとんと見当がつかぬ。 */\nint main(void) { return 0; }\n',
    line2: 'const char *greeting = "さようなら、表示と予定"; /* ソ 表 能 */',
  },
  {
    encoding: "euc-jp",
    file: "readme.txt",
    text: "春はあけぼの。やうやう白くなりゆく山ぎは、\n少しあかりて、紫だちたる雲のほそくたなびきたる。\n夏は夜。月の頃はさらなり。\n",
    line2: "秋は夕暮れ。夕日のさして山の端いと近うなりたるに、",
  },
  {
    encoding: "euc-kr",
    file: "hello.py",
    text: '# 동해 물과 백두산이 마르고 닳도록\nprint("안녕하세요, 세계")\n# 하느님이 보우하사 우리나라 만세\n',
    line2: 'print("무궁화 삼천리 화려 강산")',
  },
  {
    encoding: "gbk",
    file: "poem.js",
    text: '// 床前明月光，疑是地上霜。\nconst title = "静夜思";\n// 举头望明月，低头思故乡。\n',
    line2: 'const title = "春晓：春眠不觉晓，处处闻啼鸟";',
  },
  {
    encoding: "big5",
    file: "poem.txt",
    text: "白日依山盡，黃河入海流。\n欲窮千里目，更上一層樓。\n登鸛雀樓　王之渙\n",
    line2: "國破山河在，城春草木深。",
  },
  {
    encoding: "utf-16le",
    file: "Resource.rc",
    bom: true,
    text: '// Microsoft Visual C++ generated resource script.\r\nSTRINGTABLE\r\nBEGIN\r\n    IDS_HELLO "Grüße, 世界"\r\nEND\r\n',
    line2: "STRINGTABLE DISCARDABLE — 表示 😀",
  },
  {
    encoding: "utf-16be",
    file: "notes.txt",
    bom: true,
    text: "Ελληνικά: Γνῶθι σεαυτόν.\nРусский: Тише едешь — дальше будешь.\n",
    line2: "日本語: 猿も木から落ちる。",
  },
];

/** The bytes of `text` in the sample's encoding, with its BOM when it has one. */
export function encode(sample: Sample, text = sample.text): Buffer {
  return iconv.encode(text, sample.encoding, { addBOM: sample.bom ?? false });
}
