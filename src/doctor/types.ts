export type CheckStatus = 'ok' | 'warn' | 'fail'

export interface DoctorCheck {
  name: string
  status: CheckStatus
  message: string
}

export interface DoctorReport {
  status: CheckStatus
  checks: DoctorCheck[]
}

export function check(name: string, status: CheckStatus, message: string): DoctorCheck {
  return { name, status, message }
}

/** The worst status wins. */
export function overallStatus(checks: readonly DoctorCheck[]): CheckStatus {
  if (checks.some((c) => c.status === 'fail')) return 'fail'
  if (checks.some((c) => c.status === 'warn')) return 'warn'
  return 'ok'
}
