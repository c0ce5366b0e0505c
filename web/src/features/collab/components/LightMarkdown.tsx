import type { ReactNode } from 'react';

/**
 * Renders the team's "light Markdown" (tandem.content): paragraphs, `### ` headings,
 * `- ` bullets, `1. ` numbered steps and `**bold**`. Text only: no links, images or HTML,
 * so nothing in a guide can inject markup.
 */
function inline(text: string): ReactNode[] {
  return text.split(/(\*\*[^*]+\*\*)/g).map((part, index) =>
    part.startsWith('**') && part.endsWith('**') && part.length > 4 ? (
      <strong key={index}>{part.slice(2, -2)}</strong>
    ) : (
      part
    ),
  );
}

type Block =
  | { readonly kind: 'heading' | 'paragraph'; readonly text: string }
  | { readonly kind: 'bullets' | 'steps'; readonly items: string[] };

function parseLightMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
  };
  for (const raw of source.split('\n')) {
    const line = raw.trim();
    const bullet = /^- (.*)$/.exec(line);
    const step = /^\d+\. (.*)$/.exec(line);
    if (line === '') {
      endParagraph();
    } else if (line.startsWith('### ')) {
      endParagraph();
      blocks.push({ kind: 'heading', text: line.slice(4) });
    } else if (bullet || step) {
      endParagraph();
      const kind = bullet ? 'bullets' : 'steps';
      const text = (bullet ?? step)?.[1] ?? '';
      const last = blocks.at(-1);
      if (last?.kind === kind) last.items.push(text);
      else blocks.push({ kind, items: [text] });
    } else {
      paragraph.push(line);
    }
  }
  endParagraph();
  return blocks;
}

export function LightMarkdown({ source, headingLevel = 3 }: { readonly source: string; readonly headingLevel?: 3 | 4 }) {
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  return (
    <div className="light-markdown">
      {parseLightMarkdown(source).map((block, index) => {
        switch (block.kind) {
          case 'heading':
            return <Heading key={index}>{inline(block.text)}</Heading>;
          case 'paragraph':
            return <p key={index}>{inline(block.text)}</p>;
          case 'bullets':
            return (
              <ul key={index}>
                {block.items.map((item, i) => (
                  <li key={i}>{inline(item)}</li>
                ))}
              </ul>
            );
          case 'steps':
            return (
              <ol key={index}>
                {block.items.map((item, i) => (
                  <li key={i}>{inline(item)}</li>
                ))}
              </ol>
            );
        }
      })}
    </div>
  );
}
