import common from './common.json';
import payment from './payment.json';
import stems from './stems.json';
import studio from './studio.json';

/**
 * French, one file per namespace: `common`, the studio's (`t('studio:upload.start')`), the stems board's, payment's (the
 * mixing studio brings its own: `features/mixing/model/texts.ts`).
 */
export default { common, studio, stems, payment };
