import {
  NEXT_CURSOR_HEADER,
  PREV_CURSOR_HEADER,
  TOTAL_CAPPED_HEADER,
  TOTAL_COUNT_HEADER,
} from '@mailroom/contract/common';
import type { FastifyReply } from 'fastify';
import type { CursorPage } from './cursor.ts';

/** X-Total-Count and the neighbours' cursors of a list page; answers the page's items. */
export function sendPage<T>(reply: FastifyReply, page: CursorPage<T>): T[] {
  void reply.header(TOTAL_COUNT_HEADER, String(page.total));
  if (page.capped) void reply.header(TOTAL_CAPPED_HEADER, 'true');
  if (page.next) void reply.header(NEXT_CURSOR_HEADER, page.next);
  if (page.prev) void reply.header(PREV_CURSOR_HEADER, page.prev);
  return page.items;
}
