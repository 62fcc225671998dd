/** Jupyter notebooks as Jupyter writes them: nbformat 4 with line lists, and an older nbformat 3. */

export function notebookV4(): string {
  return JSON.stringify(
    {
      cells: [
        { cell_type: 'markdown', id: 'a1', metadata: {}, source: ['# Customer churn model\n', '\n', 'We fit a **logistic regression** on the 2024 cohort. See [the notes](../notes/churn.md).'] },
        {
          cell_type: 'code',
          execution_count: 1,
          id: 'a2',
          metadata: {},
          outputs: [
            { name: 'stdout', output_type: 'stream', text: ['loaded 10000 rows\n'] },
            {
              data: { 'text/html': ['<script>alert(1)</script><table></table>'], 'text/plain': ['   tenure  churned\n', '0      12        0'] },
              execution_count: 1,
              metadata: {},
              output_type: 'execute_result',
            },
          ],
          source: ['import pandas as pd\n', "df = pd.read_csv('cohort.csv')\n", 'df.head(1)'],
        },
        {
          cell_type: 'code',
          execution_count: 2,
          id: 'a3',
          metadata: {},
          outputs: [
            {
              data: { 'image/png': 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'text/plain': ['<Figure size 640x480 with 1 Axes>'] },
              metadata: {},
              output_type: 'display_data',
            },
            { ename: 'ValueError', evalue: 'solver lbfgs failed to converge', output_type: 'error', traceback: ['\u001b[0;31mValueError\u001b[0m Traceback (most recent call last)'] },
          ],
          source: 'def fit(X, y):\n    return LogisticRegression().fit(X, y)',
        },
        { cell_type: 'code', execution_count: 3, id: 'a4', metadata: {}, outputs: [{ name: 'stdout', output_type: 'stream', text: 'epoch\n'.repeat(1000) }], source: ['train()'] },
        { cell_type: 'code', execution_count: null, id: 'a5', metadata: {}, outputs: [], source: [] },
        { cell_type: 'raw', id: 'a6', metadata: {}, source: ['raw text for nbconvert'] },
        { cell_type: 'markdown', id: 'a7', metadata: {}, source: ['## Results\n', 'AUC was 0.81.'] },
      ],
      metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python', version: '3.11.7' } },
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  )
}

export function notebookV3(): string {
  return JSON.stringify({
    metadata: { name: 'old analysis' },
    nbformat: 3,
    nbformat_minor: 0,
    worksheets: [
      {
        cells: [
          { cell_type: 'heading', level: 2, metadata: {}, source: ['Setup'] },
          {
            cell_type: 'code',
            collapsed: false,
            input: ['x = 40 + 2\n', 'x'],
            language: 'python',
            metadata: {},
            outputs: [{ metadata: {}, output_type: 'pyout', prompt_number: 1, text: ['42'] }],
            prompt_number: 1,
          },
        ],
        metadata: {},
      },
    ],
  })
}
