/* Folders a run or a test makes for its own files. */
#ifndef ADC_SUPPORT_FOLDERS_H
#define ADC_SUPPORT_FOLDERS_H

/* Removes the files directly in `dir`, then `dir` itself; a folder inside
 * it, or anything that cannot be removed, stays (and so does `dir`). */
void adc_remove_folder(const char* dir);

#endif /* ADC_SUPPORT_FOLDERS_H */
