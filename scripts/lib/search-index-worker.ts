/**
 * The search index's worker thread (started by the `searchIndex` integration of search-index.ts): it hands each page it
 * receives to Pagefind, whose messages (JSON in base64 through a pipe) would otherwise cost Astro's rendering thread,
 * then writes the index and answers with the pages indexed or the first failure.
 */
import { parentPort } from 'node:worker_threads';
import * as pagefind from 'pagefind';
import { openSearchIndex, type SearchIndexAnswer, type SearchIndexRequest } from './search-index.ts';

const port = parentPort!;
const opening = openSearchIndex();
const adding: Promise<unknown>[] = [];
let failure: unknown;
const fail = (error: unknown) => (failure ??= error);
opening.catch(fail);

port.on('message', (request: SearchIndexRequest) => {
  if (request.type === 'add') {
    adding.push(opening.then((index) => index.add(request.sourcePath, request.html)).catch(fail));
    return;
  }
  void Promise.all(adding)
    .then(async () => {
      if (failure !== undefined) throw failure;
      return { pages: await (await opening).write(request.outputPath) };
    })
    .catch((error: unknown): SearchIndexAnswer => ({ error: (error as Error).message ?? String(error) }))
    .then(async (answer) => {
      await pagefind.close();
      port.postMessage(answer);
    });
});
