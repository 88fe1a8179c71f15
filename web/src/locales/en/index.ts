import common from './common.json';
import mixing from './mixing.json';
import payment from './payment.json';
import stems from './stems.json';
import studio from './studio.json';

/**
 * English, one file per namespace: `common`, the studio's (`t('studio:upload.start')`), the stems board's, payment's and
 * the mixing studio's.
 */
export default { common, studio, stems, payment, mixing };
