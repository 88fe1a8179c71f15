import common from './common.json';
import stems from './stems.json';
import studio from './studio.json';

/** English, one file per namespace: `common`, the studio's (`t('studio:upload.start')`), the stems board's. */
export default { common, studio, stems };
