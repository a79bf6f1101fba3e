import type { FastifyRequest } from 'fastify';
import { HTTP_STATUS_HEADER, HTTP_STATUS_STANDARD } from '@tp/contract/http-status';

const header = HTTP_STATUS_HEADER.toLowerCase();

/** The client asked for standard HTTP statuses (`X-HTTP-Status: standard`); otherwise every envelope is HTTP 200. */
export const wantsStandardStatus = (req: FastifyRequest): boolean => {
  const sent = req.headers[header];
  return typeof sent === 'string' && sent.trim().toLowerCase() === HTTP_STATUS_STANDARD;
};
