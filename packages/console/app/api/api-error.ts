// A refused or failed API call, carrying the problem+json the API answered.

/** The problem+json fields the console reads. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  code?: string;
  detail?: string;
  [key: string]: unknown;
}

/** A non-2xx answer (or a network failure, status 0). Show `detail` to the user. */
export class ApiError extends Error {
  readonly status: number;
  /** The API's stable error code (`approver_not_authorized`, …); `network_error` offline. */
  readonly code: string;
  /** What went wrong, in the API's words: what the console shows in `role="alert"`. */
  readonly detail: string;
  readonly problem: Problem | null;

  constructor(status: number, code: string, detail: string, problem: Problem | null = null) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.problem = problem;
  }
}

/** The user-facing message of anything thrown by an API call or a page. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  if (error instanceof Error && error.message !== '') return error.message;
  return 'Something went wrong.';
}

/** Reads a non-2xx response into an ApiError (problem+json when the body is one). */
export async function toApiError(response: Response): Promise<ApiError> {
  let problem: Problem | null = null;
  try {
    const body: unknown = JSON.parse(await response.text());
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      problem = body as Problem;
    }
  } catch {
    // Not JSON (a proxy's error page): fall back to the status line.
  }
  const code = typeof problem?.code === 'string' ? problem.code : `http_${response.status}`;
  const detail =
    typeof problem?.detail === 'string' && problem.detail !== ''
      ? problem.detail
      : typeof problem?.title === 'string' && problem.title !== ''
        ? problem.title
        : `The API answered ${response.status} ${response.statusText}`.trim() + '.';
  return new ApiError(response.status, code, detail, problem);
}
