// A refusal or failure, announced to screen readers: the API's `detail` in role="alert".
import { errorMessage } from '../api/api-error.js';

/** Props of {@link ErrorAlert}. */
export interface ErrorAlertProps {
  /** What was thrown (an ApiError shows its `detail`); nothing renders for null. */
  error: unknown;
}

/** Shows `errorMessage(error)` in an alert, or nothing. */
export function ErrorAlert({ error }: ErrorAlertProps) {
  if (error === null || error === undefined) return null;
  return (
    <p role="alert" class="alert">
      {errorMessage(error)}
    </p>
  );
}
