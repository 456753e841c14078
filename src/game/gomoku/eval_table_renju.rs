//! The evaluation's fitted tables, written by `arbor tune --game gomoku`.
//! Fitted to 5612 teacher games (235609 positions) of rapfi-renju-2026-11-29.txt, gomokunn-renju;
//! scale 2467.
//! (`arbor tune --game gomoku --rule renju --teacher rapfi-renju-2026-11-29.txt gomokunn-renju`:
//! 60 games of Rapfi's renju self-play, made here, and 5,568 Gomocup renju-league games of
//! MahiruInami/GomokuNN's database, MIT; 15 of those left out, see docs/gomoku.md#renju.)

use super::pattern::PointClass;

/// By `PointClass`, Black's then White's: a point's value to the side to move,
/// and to the other side.
#[rustfmt::skip]
pub const POINT_VALUES: [[i16; 2]; 2 * PointClass::COUNT] = [
    [0, 0], // [Dead, Dead, Dead, Dead]
    [32, 33], // [One, Dead, Dead, Dead]
    [-22, -19], // [One, One, Dead, Dead]
    [7, 9], // [One, One, One, Dead]
    [-20, -20], // [One, One, One, One]
    [-33, -17], // [Two, Dead, Dead, Dead]
    [-29, -27], // [Two, One, Dead, Dead]
    [-7, -2], // [Two, One, One, Dead]
    [-9, -9], // [Two, One, One, One]
    [-25, -22], // [Two, Two, Dead, Dead]
    [-92, -83], // [Two, Two, One, Dead]
    [-40, -39], // [Two, Two, One, One]
    [-76, -50], // [Two, Two, Two, Dead]
    [-61, -53], // [Two, Two, Two, One]
    [-8, -14], // [Two, Two, Two, Two]
    [40, 50], // [OpenTwo, Dead, Dead, Dead]
    [-63, -57], // [OpenTwo, One, Dead, Dead]
    [-3, -5], // [OpenTwo, One, One, Dead]
    [-22, -21], // [OpenTwo, One, One, One]
    [-60, -57], // [OpenTwo, Two, Dead, Dead]
    [-31, -34], // [OpenTwo, Two, One, Dead]
    [13, 6], // [OpenTwo, Two, One, One]
    [29, 13], // [OpenTwo, Two, Two, Dead]
    [18, 19], // [OpenTwo, Two, Two, One]
    [50, 33], // [OpenTwo, Two, Two, Two]
    [-51, -57], // [OpenTwo, OpenTwo, Dead, Dead]
    [9, -15], // [OpenTwo, OpenTwo, One, Dead]
    [30, 24], // [OpenTwo, OpenTwo, One, One]
    [45, 38], // [OpenTwo, OpenTwo, Two, Dead]
    [12, 8], // [OpenTwo, OpenTwo, Two, One]
    [63, 60], // [OpenTwo, OpenTwo, Two, Two]
    [75, 68], // [OpenTwo, OpenTwo, OpenTwo, Dead]
    [40, 35], // [OpenTwo, OpenTwo, OpenTwo, One]
    [55, 49], // [OpenTwo, OpenTwo, OpenTwo, Two]
    [42, 49], // [OpenTwo, OpenTwo, OpenTwo, OpenTwo]
    [-28, -14], // [Three, Dead, Dead, Dead]
    [-40, -36], // [Three, One, Dead, Dead]
    [-18, -6], // [Three, One, One, Dead]
    [31, 20], // [Three, One, One, One]
    [-6, -6], // [Three, Two, Dead, Dead]
    [-16, -17], // [Three, Two, One, Dead]
    [5, 3], // [Three, Two, One, One]
    [15, 23], // [Three, Two, Two, Dead]
    [-8, -1], // [Three, Two, Two, One]
    [6, 19], // [Three, Two, Two, Two]
    [18, -13], // [Three, OpenTwo, Dead, Dead]
    [94, 61], // [Three, OpenTwo, One, Dead]
    [158, 132], // [Three, OpenTwo, One, One]
    [137, 117], // [Three, OpenTwo, Two, Dead]
    [118, 110], // [Three, OpenTwo, Two, One]
    [101, 113], // [Three, OpenTwo, Two, Two]
    [119, 105], // [Three, OpenTwo, OpenTwo, Dead]
    [123, 119], // [Three, OpenTwo, OpenTwo, One]
    [66, 76], // [Three, OpenTwo, OpenTwo, Two]
    [38, 38], // [Three, OpenTwo, OpenTwo, OpenTwo]
    [36, 22], // [Three, Three, Dead, Dead]
    [25, 10], // [Three, Three, One, Dead]
    [168, 142], // [Three, Three, One, One]
    [66, 65], // [Three, Three, Two, Dead]
    [85, 75], // [Three, Three, Two, One]
    [32, 31], // [Three, Three, Two, Two]
    [94, 71], // [Three, Three, OpenTwo, Dead]
    [98, 121], // [Three, Three, OpenTwo, One]
    [73, 58], // [Three, Three, OpenTwo, Two]
    [73, 57], // [Three, Three, OpenTwo, OpenTwo]
    [37, 40], // [Three, Three, Three, Dead]
    [44, 50], // [Three, Three, Three, One]
    [33, 31], // [Three, Three, Three, Two]
    [42, 45], // [Three, Three, Three, OpenTwo]
    [40, 42], // [Three, Three, Three, Three]
    [-16, 8], // [OpenThree, Dead, Dead, Dead]
    [-20, -18], // [OpenThree, One, Dead, Dead]
    [75, 63], // [OpenThree, One, One, Dead]
    [37, 37], // [OpenThree, One, One, One]
    [26, 23], // [OpenThree, Two, Dead, Dead]
    [105, 90], // [OpenThree, Two, One, Dead]
    [134, 121], // [OpenThree, Two, One, One]
    [86, 96], // [OpenThree, Two, Two, Dead]
    [191, 180], // [OpenThree, Two, Two, One]
    [68, 70], // [OpenThree, Two, Two, Two]
    [81, 29], // [OpenThree, OpenTwo, Dead, Dead]
    [159, 75], // [OpenThree, OpenTwo, One, Dead]
    [131, 116], // [OpenThree, OpenTwo, One, One]
    [160, 90], // [OpenThree, OpenTwo, Two, Dead]
    [127, 104], // [OpenThree, OpenTwo, Two, One]
    [117, 106], // [OpenThree, OpenTwo, Two, Two]
    [166, 96], // [OpenThree, OpenTwo, OpenTwo, Dead]
    [159, 131], // [OpenThree, OpenTwo, OpenTwo, One]
    [133, 26], // [OpenThree, OpenTwo, OpenTwo, Two]
    [127, 75], // [OpenThree, OpenTwo, OpenTwo, OpenTwo]
    [105, 58], // [OpenThree, Three, Dead, Dead]
    [211, 181], // [OpenThree, Three, One, Dead]
    [271, 235], // [OpenThree, Three, One, One]
    [184, 165], // [OpenThree, Three, Two, Dead]
    [218, 249], // [OpenThree, Three, Two, One]
    [120, 142], // [OpenThree, Three, Two, Two]
    [223, 158], // [OpenThree, Three, OpenTwo, Dead]
    [181, 151], // [OpenThree, Three, OpenTwo, One]
    [145, 139], // [OpenThree, Three, OpenTwo, Two]
    [105, 90], // [OpenThree, Three, OpenTwo, OpenTwo]
    [122, 94], // [OpenThree, Three, Three, Dead]
    [77, 114], // [OpenThree, Three, Three, One]
    [80, 69], // [OpenThree, Three, Three, Two]
    [102, 90], // [OpenThree, Three, Three, OpenTwo]
    [77, 81], // [OpenThree, Three, Three, Three]
    [215, -43], // [OpenThree, OpenThree, Dead, Dead]
    [192, 216], // [OpenThree, OpenThree, One, Dead]
    [-120, -26], // [OpenThree, OpenThree, One, One]
    [393, 262], // [OpenThree, OpenThree, Two, Dead]
    [78, 64], // [OpenThree, OpenThree, Two, One]
    [213, 190], // [OpenThree, OpenThree, Two, Two]
    [383, 238], // [OpenThree, OpenThree, OpenTwo, Dead]
    [68, 37], // [OpenThree, OpenThree, OpenTwo, One]
    [237, 123], // [OpenThree, OpenThree, OpenTwo, Two]
    [276, 268], // [OpenThree, OpenThree, OpenTwo, OpenTwo]
    [243, 143], // [OpenThree, OpenThree, Three, Dead]
    [24, 68], // [OpenThree, OpenThree, Three, One]
    [265, 251], // [OpenThree, OpenThree, Three, Two]
    [198, 188], // [OpenThree, OpenThree, Three, OpenTwo]
    [209, 226], // [OpenThree, OpenThree, Three, Three]
    [225, 197], // [OpenThree, OpenThree, OpenThree, Dead]
    [265, 297], // [OpenThree, OpenThree, OpenThree, One]
    [266, 245], // [OpenThree, OpenThree, OpenThree, Two]
    [239, 204], // [OpenThree, OpenThree, OpenThree, OpenTwo]
    [270, 265], // [OpenThree, OpenThree, OpenThree, Three]
    [300, 300], // [OpenThree, OpenThree, OpenThree, OpenThree]
    [-105, -28], // [Four, Dead, Dead, Dead]
    [-108, -72], // [Four, One, Dead, Dead]
    [64, 84], // [Four, One, One, Dead]
    [206, 219], // [Four, One, One, One]
    [57, 74], // [Four, Two, Dead, Dead]
    [95, 127], // [Four, Two, One, Dead]
    [260, 264], // [Four, Two, One, One]
    [162, 197], // [Four, Two, Two, Dead]
    [181, 201], // [Four, Two, Two, One]
    [133, 162], // [Four, Two, Two, Two]
    [214, 177], // [Four, OpenTwo, Dead, Dead]
    [307, 279], // [Four, OpenTwo, One, Dead]
    [511, 458], // [Four, OpenTwo, One, One]
    [360, 296], // [Four, OpenTwo, Two, Dead]
    [477, 512], // [Four, OpenTwo, Two, One]
    [166, 205], // [Four, OpenTwo, Two, Two]
    [154, 186], // [Four, OpenTwo, OpenTwo, Dead]
    [349, 362], // [Four, OpenTwo, OpenTwo, One]
    [186, 203], // [Four, OpenTwo, OpenTwo, Two]
    [129, 129], // [Four, OpenTwo, OpenTwo, OpenTwo]
    [108, 87], // [Four, Three, Dead, Dead]
    [177, 174], // [Four, Three, One, Dead]
    [356, 393], // [Four, Three, One, One]
    [186, 212], // [Four, Three, Two, Dead]
    [267, 291], // [Four, Three, Two, One]
    [97, 147], // [Four, Three, Two, Two]
    [244, 177], // [Four, Three, OpenTwo, Dead]
    [304, 347], // [Four, Three, OpenTwo, One]
    [150, 139], // [Four, Three, OpenTwo, Two]
    [124, 144], // [Four, Three, OpenTwo, OpenTwo]
    [107, 114], // [Four, Three, Three, Dead]
    [118, 130], // [Four, Three, Three, One]
    [87, 91], // [Four, Three, Three, Two]
    [100, 84], // [Four, Three, Three, OpenTwo]
    [90, 88], // [Four, Three, Three, Three]
    [-391, 713], // [Four, OpenThree, Dead, Dead]
    [-226, 528], // [Four, OpenThree, One, Dead]
    [-191, 591], // [Four, OpenThree, One, One]
    [108, 713], // [Four, OpenThree, Two, Dead]
    [204, 672], // [Four, OpenThree, Two, One]
    [283, 684], // [Four, OpenThree, Two, Two]
    [513, 746], // [Four, OpenThree, OpenTwo, Dead]
    [-67, 789], // [Four, OpenThree, OpenTwo, One]
    [277, 691], // [Four, OpenThree, OpenTwo, Two]
    [464, 688], // [Four, OpenThree, OpenTwo, OpenTwo]
    [342, 844], // [Four, OpenThree, Three, Dead]
    [255, 780], // [Four, OpenThree, Three, One]
    [434, 544], // [Four, OpenThree, Three, Two]
    [519, 483], // [Four, OpenThree, Three, OpenTwo]
    [438, 577], // [Four, OpenThree, Three, Three]
    [-489, 865], // [Four, OpenThree, OpenThree, Dead]
    [87, 760], // [Four, OpenThree, OpenThree, One]
    [175, 408], // [Four, OpenThree, OpenThree, Two]
    [467, 462], // [Four, OpenThree, OpenThree, OpenTwo]
    [467, 491], // [Four, OpenThree, OpenThree, Three]
    [495, 495], // [Four, OpenThree, OpenThree, OpenThree]
    [-1625, 499], // [Four, Four, Dead, Dead]
    [-1517, 350], // [Four, Four, One, Dead]
    [-1252, 723], // [Four, Four, One, One]
    [-1293, 341], // [Four, Four, Two, Dead]
    [-878, 603], // [Four, Four, Two, One]
    [4, 657], // [Four, Four, Two, Two]
    [-559, 577], // [Four, Four, OpenTwo, Dead]
    [-777, 661], // [Four, Four, OpenTwo, One]
    [64, 446], // [Four, Four, OpenTwo, Two]
    [330, 378], // [Four, Four, OpenTwo, OpenTwo]
    [-1034, 313], // [Four, Four, Three, Dead]
    [182, 358], // [Four, Four, Three, One]
    [-57, 643], // [Four, Four, Three, Two]
    [302, 408], // [Four, Four, Three, OpenTwo]
    [340, 327], // [Four, Four, Three, Three]
    [67, 378], // [Four, Four, OpenThree, Dead]
    [284, 544], // [Four, Four, OpenThree, One]
    [327, 399], // [Four, Four, OpenThree, Two]
    [340, 432], // [Four, Four, OpenThree, OpenTwo]
    [383, 375], // [Four, Four, OpenThree, Three]
    [410, 410], // [Four, Four, OpenThree, OpenThree]
    [341, 506], // [Four, Four, Four, Dead]
    [395, 446], // [Four, Four, Four, One]
    [365, 476], // [Four, Four, Four, Two]
    [392, 412], // [Four, Four, Four, OpenTwo]
    [390, 390], // [Four, Four, Four, Three]
    [425, 425], // [Four, Four, Four, OpenThree]
    [440, 440], // [Four, Four, Four, Four]
    [-1331, 241], // [OpenFour, Dead, Dead, Dead]
    [-590, 314], // [OpenFour, One, Dead, Dead]
    [288, 468], // [OpenFour, One, One, Dead]
    [153, 392], // [OpenFour, One, One, One]
    [-193, 350], // [OpenFour, Two, Dead, Dead]
    [-64, 544], // [OpenFour, Two, One, Dead]
    [150, 512], // [OpenFour, Two, One, One]
    [94, 369], // [OpenFour, Two, Two, Dead]
    [340, 623], // [OpenFour, Two, Two, One]
    [512, 519], // [OpenFour, Two, Two, Two]
    [414, 507], // [OpenFour, OpenTwo, Dead, Dead]
    [513, 490], // [OpenFour, OpenTwo, One, Dead]
    [232, 472], // [OpenFour, OpenTwo, One, One]
    [429, 608], // [OpenFour, OpenTwo, Two, Dead]
    [193, 508], // [OpenFour, OpenTwo, Two, One]
    [520, 594], // [OpenFour, OpenTwo, Two, Two]
    [524, 630], // [OpenFour, OpenTwo, OpenTwo, Dead]
    [525, 546], // [OpenFour, OpenTwo, OpenTwo, One]
    [528, 743], // [OpenFour, OpenTwo, OpenTwo, Two]
    [536, 538], // [OpenFour, OpenTwo, OpenTwo, OpenTwo]
    [338, 461], // [OpenFour, Three, Dead, Dead]
    [229, 701], // [OpenFour, Three, One, Dead]
    [378, 705], // [OpenFour, Three, One, One]
    [340, 672], // [OpenFour, Three, Two, Dead]
    [515, 573], // [OpenFour, Three, Two, One]
    [518, 676], // [OpenFour, Three, Two, Two]
    [522, 612], // [OpenFour, Three, OpenTwo, Dead]
    [527, 426], // [OpenFour, Three, OpenTwo, One]
    [526, 316], // [OpenFour, Three, OpenTwo, Two]
    [540, 730], // [OpenFour, Three, OpenTwo, OpenTwo]
    [282, 634], // [OpenFour, Three, Three, Dead]
    [521, 624], // [OpenFour, Three, Three, One]
    [524, 564], // [OpenFour, Three, Three, Two]
    [532, 517], // [OpenFour, Three, Three, OpenTwo]
    [530, 554], // [OpenFour, Three, Three, Three]
    [545, 618], // [OpenFour, OpenThree, Dead, Dead]
    [550, 292], // [OpenFour, OpenThree, One, Dead]
    [549, 48], // [OpenFour, OpenThree, One, One]
    [549, 591], // [OpenFour, OpenThree, Two, Dead]
    [419, 450], // [OpenFour, OpenThree, Two, One]
    [553, 683], // [OpenFour, OpenThree, Two, Two]
    [557, 648], // [OpenFour, OpenThree, OpenTwo, Dead]
    [527, 299], // [OpenFour, OpenThree, OpenTwo, One]
    [561, 603], // [OpenFour, OpenThree, OpenTwo, Two]
    [569, 625], // [OpenFour, OpenThree, OpenTwo, OpenTwo]
    [555, 595], // [OpenFour, OpenThree, Three, Dead]
    [556, 444], // [OpenFour, OpenThree, Three, One]
    [559, 631], // [OpenFour, OpenThree, Three, Two]
    [575, 371], // [OpenFour, OpenThree, Three, OpenTwo]
    [565, 565], // [OpenFour, OpenThree, Three, Three]
    [545, 553], // [OpenFour, OpenThree, OpenThree, Dead]
    [591, 591], // [OpenFour, OpenThree, OpenThree, One]
    [420, 535], // [OpenFour, OpenThree, OpenThree, Two]
    [602, 602], // [OpenFour, OpenThree, OpenThree, OpenTwo]
    [600, 600], // [OpenFour, OpenThree, OpenThree, Three]
    [635, 635], // [OpenFour, OpenThree, OpenThree, OpenThree]
    [-580, 508], // [OpenFour, Four, Dead, Dead]
    [-474, 239], // [OpenFour, Four, One, Dead]
    [-159, 434], // [OpenFour, Four, One, One]
    [-544, 1069], // [OpenFour, Four, Two, Dead]
    [-1047, 672], // [OpenFour, Four, Two, One]
    [86, 873], // [OpenFour, Four, Two, Two]
    [286, 675], // [OpenFour, Four, OpenTwo, Dead]
    [263, 896], // [OpenFour, Four, OpenTwo, One]
    [239, 1181], // [OpenFour, Four, OpenTwo, Two]
    [584, 565], // [OpenFour, Four, OpenTwo, OpenTwo]
    [431, 787], // [OpenFour, Four, Three, Dead]
    [353, 492], // [OpenFour, Four, Three, One]
    [614, 705], // [OpenFour, Four, Three, Two]
    [582, 582], // [OpenFour, Four, Three, OpenTwo]
    [580, 580], // [OpenFour, Four, Three, Three]
    [145, 783], // [OpenFour, Four, OpenThree, Dead]
    [606, 625], // [OpenFour, Four, OpenThree, One]
    [609, 670], // [OpenFour, Four, OpenThree, Two]
    [617, 617], // [OpenFour, Four, OpenThree, OpenTwo]
    [615, 615], // [OpenFour, Four, OpenThree, Three]
    [650, 650], // [OpenFour, Four, OpenThree, OpenThree]
    [136, 747], // [OpenFour, Four, Four, Dead]
    [450, 736], // [OpenFour, Four, Four, One]
    [624, 626], // [OpenFour, Four, Four, Two]
    [632, 632], // [OpenFour, Four, Four, OpenTwo]
    [630, 630], // [OpenFour, Four, Four, Three]
    [665, 665], // [OpenFour, Four, Four, OpenThree]
    [680, 680], // [OpenFour, Four, Four, Four]
    [-1118, 12], // [OpenFour, OpenFour, Dead, Dead]
    [801, 614], // [OpenFour, OpenFour, One, Dead]
    [802, 775], // [OpenFour, OpenFour, One, One]
    [804, 718], // [OpenFour, OpenFour, Two, Dead]
    [805, 761], // [OpenFour, OpenFour, Two, One]
    [808, 705], // [OpenFour, OpenFour, Two, Two]
    [812, 751], // [OpenFour, OpenFour, OpenTwo, Dead]
    [813, 810], // [OpenFour, OpenFour, OpenTwo, One]
    [816, 816], // [OpenFour, OpenFour, OpenTwo, Two]
    [734, 1020], // [OpenFour, OpenFour, OpenTwo, OpenTwo]
    [810, 810], // [OpenFour, OpenFour, Three, Dead]
    [811, 811], // [OpenFour, OpenFour, Three, One]
    [814, 814], // [OpenFour, OpenFour, Three, Two]
    [822, 822], // [OpenFour, OpenFour, Three, OpenTwo]
    [820, 820], // [OpenFour, OpenFour, Three, Three]
    [860, 660], // [OpenFour, OpenFour, OpenThree, Dead]
    [846, 846], // [OpenFour, OpenFour, OpenThree, One]
    [849, 849], // [OpenFour, OpenFour, OpenThree, Two]
    [834, 991], // [OpenFour, OpenFour, OpenThree, OpenTwo]
    [855, 855], // [OpenFour, OpenFour, OpenThree, Three]
    [890, 890], // [OpenFour, OpenFour, OpenThree, OpenThree]
    [860, 860], // [OpenFour, OpenFour, Four, Dead]
    [861, 861], // [OpenFour, OpenFour, Four, One]
    [864, 864], // [OpenFour, OpenFour, Four, Two]
    [872, 872], // [OpenFour, OpenFour, Four, OpenTwo]
    [870, 870], // [OpenFour, OpenFour, Four, Three]
    [905, 905], // [OpenFour, OpenFour, Four, OpenThree]
    [920, 920], // [OpenFour, OpenFour, Four, Four]
    [1100, 1100], // [OpenFour, OpenFour, OpenFour, Dead]
    [1101, 1101], // [OpenFour, OpenFour, OpenFour, One]
    [1104, 1104], // [OpenFour, OpenFour, OpenFour, Two]
    [1112, 1112], // [OpenFour, OpenFour, OpenFour, OpenTwo]
    [1110, 1110], // [OpenFour, OpenFour, OpenFour, Three]
    [1145, 1145], // [OpenFour, OpenFour, OpenFour, OpenThree]
    [1160, 1160], // [OpenFour, OpenFour, OpenFour, Four]
    [1400, 1400], // [OpenFour, OpenFour, OpenFour, OpenFour]
    [1000, 1000], // [Five, Dead, Dead, Dead]
    [1001, 1001], // [Five, One, Dead, Dead]
    [1002, 1002], // [Five, One, One, Dead]
    [1003, 1003], // [Five, One, One, One]
    [1004, 1004], // [Five, Two, Dead, Dead]
    [1005, 1005], // [Five, Two, One, Dead]
    [1006, 1006], // [Five, Two, One, One]
    [1008, 1008], // [Five, Two, Two, Dead]
    [1009, 1009], // [Five, Two, Two, One]
    [1012, 1012], // [Five, Two, Two, Two]
    [1012, 1012], // [Five, OpenTwo, Dead, Dead]
    [1013, 1013], // [Five, OpenTwo, One, Dead]
    [1014, 1014], // [Five, OpenTwo, One, One]
    [1016, 1016], // [Five, OpenTwo, Two, Dead]
    [1017, 1017], // [Five, OpenTwo, Two, One]
    [1020, 1020], // [Five, OpenTwo, Two, Two]
    [1024, 1024], // [Five, OpenTwo, OpenTwo, Dead]
    [1025, 1025], // [Five, OpenTwo, OpenTwo, One]
    [1028, 1028], // [Five, OpenTwo, OpenTwo, Two]
    [1036, 1036], // [Five, OpenTwo, OpenTwo, OpenTwo]
    [1010, 1010], // [Five, Three, Dead, Dead]
    [1011, 1011], // [Five, Three, One, Dead]
    [1012, 1012], // [Five, Three, One, One]
    [1014, 1014], // [Five, Three, Two, Dead]
    [1015, 1015], // [Five, Three, Two, One]
    [1018, 1018], // [Five, Three, Two, Two]
    [1022, 1022], // [Five, Three, OpenTwo, Dead]
    [1023, 1023], // [Five, Three, OpenTwo, One]
    [1026, 1026], // [Five, Three, OpenTwo, Two]
    [1034, 1034], // [Five, Three, OpenTwo, OpenTwo]
    [1020, 1020], // [Five, Three, Three, Dead]
    [1021, 1021], // [Five, Three, Three, One]
    [1024, 1024], // [Five, Three, Three, Two]
    [1032, 1032], // [Five, Three, Three, OpenTwo]
    [1030, 1030], // [Five, Three, Three, Three]
    [1045, 1045], // [Five, OpenThree, Dead, Dead]
    [1046, 1046], // [Five, OpenThree, One, Dead]
    [1047, 1047], // [Five, OpenThree, One, One]
    [1049, 1049], // [Five, OpenThree, Two, Dead]
    [1050, 1050], // [Five, OpenThree, Two, One]
    [1053, 1053], // [Five, OpenThree, Two, Two]
    [1057, 1057], // [Five, OpenThree, OpenTwo, Dead]
    [1058, 1058], // [Five, OpenThree, OpenTwo, One]
    [1061, 1061], // [Five, OpenThree, OpenTwo, Two]
    [1069, 1069], // [Five, OpenThree, OpenTwo, OpenTwo]
    [1055, 1055], // [Five, OpenThree, Three, Dead]
    [1056, 1056], // [Five, OpenThree, Three, One]
    [1059, 1059], // [Five, OpenThree, Three, Two]
    [1067, 1067], // [Five, OpenThree, Three, OpenTwo]
    [1065, 1065], // [Five, OpenThree, Three, Three]
    [1090, 1090], // [Five, OpenThree, OpenThree, Dead]
    [1091, 1091], // [Five, OpenThree, OpenThree, One]
    [1094, 1094], // [Five, OpenThree, OpenThree, Two]
    [1102, 1102], // [Five, OpenThree, OpenThree, OpenTwo]
    [1100, 1100], // [Five, OpenThree, OpenThree, Three]
    [1135, 1135], // [Five, OpenThree, OpenThree, OpenThree]
    [1060, 1060], // [Five, Four, Dead, Dead]
    [1061, 1061], // [Five, Four, One, Dead]
    [1062, 1062], // [Five, Four, One, One]
    [1064, 1064], // [Five, Four, Two, Dead]
    [1065, 1065], // [Five, Four, Two, One]
    [1068, 1068], // [Five, Four, Two, Two]
    [1072, 1072], // [Five, Four, OpenTwo, Dead]
    [1073, 1073], // [Five, Four, OpenTwo, One]
    [1076, 1076], // [Five, Four, OpenTwo, Two]
    [1084, 1084], // [Five, Four, OpenTwo, OpenTwo]
    [1070, 1070], // [Five, Four, Three, Dead]
    [1071, 1071], // [Five, Four, Three, One]
    [1074, 1074], // [Five, Four, Three, Two]
    [1082, 1082], // [Five, Four, Three, OpenTwo]
    [1080, 1080], // [Five, Four, Three, Three]
    [1105, 1105], // [Five, Four, OpenThree, Dead]
    [1106, 1106], // [Five, Four, OpenThree, One]
    [1109, 1109], // [Five, Four, OpenThree, Two]
    [1117, 1117], // [Five, Four, OpenThree, OpenTwo]
    [1115, 1115], // [Five, Four, OpenThree, Three]
    [1150, 1150], // [Five, Four, OpenThree, OpenThree]
    [1120, 1120], // [Five, Four, Four, Dead]
    [1121, 1121], // [Five, Four, Four, One]
    [1124, 1124], // [Five, Four, Four, Two]
    [1132, 1132], // [Five, Four, Four, OpenTwo]
    [1130, 1130], // [Five, Four, Four, Three]
    [1165, 1165], // [Five, Four, Four, OpenThree]
    [1180, 1180], // [Five, Four, Four, Four]
    [1300, 1300], // [Five, OpenFour, Dead, Dead]
    [1301, 1301], // [Five, OpenFour, One, Dead]
    [1302, 1302], // [Five, OpenFour, One, One]
    [1304, 1304], // [Five, OpenFour, Two, Dead]
    [1305, 1305], // [Five, OpenFour, Two, One]
    [1308, 1308], // [Five, OpenFour, Two, Two]
    [1312, 1312], // [Five, OpenFour, OpenTwo, Dead]
    [1313, 1313], // [Five, OpenFour, OpenTwo, One]
    [1316, 1316], // [Five, OpenFour, OpenTwo, Two]
    [1324, 1324], // [Five, OpenFour, OpenTwo, OpenTwo]
    [1310, 1310], // [Five, OpenFour, Three, Dead]
    [1311, 1311], // [Five, OpenFour, Three, One]
    [1314, 1314], // [Five, OpenFour, Three, Two]
    [1322, 1322], // [Five, OpenFour, Three, OpenTwo]
    [1320, 1320], // [Five, OpenFour, Three, Three]
    [1345, 1345], // [Five, OpenFour, OpenThree, Dead]
    [1346, 1346], // [Five, OpenFour, OpenThree, One]
    [1349, 1349], // [Five, OpenFour, OpenThree, Two]
    [1357, 1357], // [Five, OpenFour, OpenThree, OpenTwo]
    [1355, 1355], // [Five, OpenFour, OpenThree, Three]
    [1390, 1390], // [Five, OpenFour, OpenThree, OpenThree]
    [1360, 1360], // [Five, OpenFour, Four, Dead]
    [1361, 1361], // [Five, OpenFour, Four, One]
    [1364, 1364], // [Five, OpenFour, Four, Two]
    [1372, 1372], // [Five, OpenFour, Four, OpenTwo]
    [1370, 1370], // [Five, OpenFour, Four, Three]
    [1405, 1405], // [Five, OpenFour, Four, OpenThree]
    [1420, 1420], // [Five, OpenFour, Four, Four]
    [1600, 1600], // [Five, OpenFour, OpenFour, Dead]
    [1601, 1601], // [Five, OpenFour, OpenFour, One]
    [1604, 1604], // [Five, OpenFour, OpenFour, Two]
    [1612, 1612], // [Five, OpenFour, OpenFour, OpenTwo]
    [1610, 1610], // [Five, OpenFour, OpenFour, Three]
    [1645, 1645], // [Five, OpenFour, OpenFour, OpenThree]
    [1660, 1660], // [Five, OpenFour, OpenFour, Four]
    [1900, 1900], // [Five, OpenFour, OpenFour, OpenFour]
    [2000, 2000], // [Five, Five, Dead, Dead]
    [2001, 2001], // [Five, Five, One, Dead]
    [2002, 2002], // [Five, Five, One, One]
    [2004, 2004], // [Five, Five, Two, Dead]
    [2005, 2005], // [Five, Five, Two, One]
    [2008, 2008], // [Five, Five, Two, Two]
    [2012, 2012], // [Five, Five, OpenTwo, Dead]
    [2013, 2013], // [Five, Five, OpenTwo, One]
    [2016, 2016], // [Five, Five, OpenTwo, Two]
    [2024, 2024], // [Five, Five, OpenTwo, OpenTwo]
    [2010, 2010], // [Five, Five, Three, Dead]
    [2011, 2011], // [Five, Five, Three, One]
    [2014, 2014], // [Five, Five, Three, Two]
    [2022, 2022], // [Five, Five, Three, OpenTwo]
    [2020, 2020], // [Five, Five, Three, Three]
    [2045, 2045], // [Five, Five, OpenThree, Dead]
    [2046, 2046], // [Five, Five, OpenThree, One]
    [2049, 2049], // [Five, Five, OpenThree, Two]
    [2057, 2057], // [Five, Five, OpenThree, OpenTwo]
    [2055, 2055], // [Five, Five, OpenThree, Three]
    [2090, 2090], // [Five, Five, OpenThree, OpenThree]
    [2060, 2060], // [Five, Five, Four, Dead]
    [2061, 2061], // [Five, Five, Four, One]
    [2064, 2064], // [Five, Five, Four, Two]
    [2072, 2072], // [Five, Five, Four, OpenTwo]
    [2070, 2070], // [Five, Five, Four, Three]
    [2105, 2105], // [Five, Five, Four, OpenThree]
    [2120, 2120], // [Five, Five, Four, Four]
    [2300, 2300], // [Five, Five, OpenFour, Dead]
    [2301, 2301], // [Five, Five, OpenFour, One]
    [2304, 2304], // [Five, Five, OpenFour, Two]
    [2312, 2312], // [Five, Five, OpenFour, OpenTwo]
    [2310, 2310], // [Five, Five, OpenFour, Three]
    [2345, 2345], // [Five, Five, OpenFour, OpenThree]
    [2360, 2360], // [Five, Five, OpenFour, Four]
    [2600, 2600], // [Five, Five, OpenFour, OpenFour]
    [3000, 3000], // [Five, Five, Five, Dead]
    [3001, 3001], // [Five, Five, Five, One]
    [3004, 3004], // [Five, Five, Five, Two]
    [3012, 3012], // [Five, Five, Five, OpenTwo]
    [3010, 3010], // [Five, Five, Five, Three]
    [3045, 3045], // [Five, Five, Five, OpenThree]
    [3060, 3060], // [Five, Five, Five, Four]
    [3300, 3300], // [Five, Five, Five, OpenFour]
    [4000, 4000], // [Five, Five, Five, Five]
    [0, 0], // [Dead, Dead, Dead, Dead]
    [25, 28], // [One, Dead, Dead, Dead]
    [-13, -8], // [One, One, Dead, Dead]
    [-11, -8], // [One, One, One, Dead]
    [-14, -13], // [One, One, One, One]
    [28, 48], // [Two, Dead, Dead, Dead]
    [-16, -4], // [Two, One, Dead, Dead]
    [-32, -28], // [Two, One, One, Dead]
    [-1, -1], // [Two, One, One, One]
    [-28, -26], // [Two, Two, Dead, Dead]
    [-61, -58], // [Two, Two, One, Dead]
    [24, 25], // [Two, Two, One, One]
    [28, 15], // [Two, Two, Two, Dead]
    [-15, -17], // [Two, Two, Two, One]
    [5, 21], // [Two, Two, Two, Two]
    [40, 50], // [OpenTwo, Dead, Dead, Dead]
    [-27, -23], // [OpenTwo, One, Dead, Dead]
    [-24, -32], // [OpenTwo, One, One, Dead]
    [-22, -23], // [OpenTwo, One, One, One]
    [7, 1], // [OpenTwo, Two, Dead, Dead]
    [10, -3], // [OpenTwo, Two, One, Dead]
    [16, 13], // [OpenTwo, Two, One, One]
    [35, 30], // [OpenTwo, Two, Two, Dead]
    [81, 84], // [OpenTwo, Two, Two, One]
    [45, 57], // [OpenTwo, Two, Two, Two]
    [-36, -26], // [OpenTwo, OpenTwo, Dead, Dead]
    [34, 17], // [OpenTwo, OpenTwo, One, Dead]
    [-16, -19], // [OpenTwo, OpenTwo, One, One]
    [71, 48], // [OpenTwo, OpenTwo, Two, Dead]
    [48, 43], // [OpenTwo, OpenTwo, Two, One]
    [58, 77], // [OpenTwo, OpenTwo, Two, Two]
    [71, 52], // [OpenTwo, OpenTwo, OpenTwo, Dead]
    [-41, -45], // [OpenTwo, OpenTwo, OpenTwo, One]
    [45, 51], // [OpenTwo, OpenTwo, OpenTwo, Two]
    [35, 16], // [OpenTwo, OpenTwo, OpenTwo, OpenTwo]
    [-90, -64], // [Three, Dead, Dead, Dead]
    [-15, -9], // [Three, One, Dead, Dead]
    [55, 51], // [Three, One, One, Dead]
    [5, 4], // [Three, One, One, One]
    [-32, -43], // [Three, Two, Dead, Dead]
    [27, 24], // [Three, Two, One, Dead]
    [80, 75], // [Three, Two, One, One]
    [38, 39], // [Three, Two, Two, Dead]
    [128, 141], // [Three, Two, Two, One]
    [38, 46], // [Three, Two, Two, Two]
    [61, 55], // [Three, OpenTwo, Dead, Dead]
    [64, 52], // [Three, OpenTwo, One, Dead]
    [118, 100], // [Three, OpenTwo, One, One]
    [93, 75], // [Three, OpenTwo, Two, Dead]
    [223, 218], // [Three, OpenTwo, Two, One]
    [95, 132], // [Three, OpenTwo, Two, Two]
    [74, 57], // [Three, OpenTwo, OpenTwo, Dead]
    [88, 106], // [Three, OpenTwo, OpenTwo, One]
    [56, 84], // [Three, OpenTwo, OpenTwo, Two]
    [56, 45], // [Three, OpenTwo, OpenTwo, OpenTwo]
    [9, -13], // [Three, Three, Dead, Dead]
    [85, 68], // [Three, Three, One, Dead]
    [150, 134], // [Three, Three, One, One]
    [81, 82], // [Three, Three, Two, Dead]
    [123, 150], // [Three, Three, Two, One]
    [58, 69], // [Three, Three, Two, Two]
    [63, 55], // [Three, Three, OpenTwo, Dead]
    [129, 130], // [Three, Three, OpenTwo, One]
    [69, 82], // [Three, Three, OpenTwo, Two]
    [54, 55], // [Three, Three, OpenTwo, OpenTwo]
    [47, 38], // [Three, Three, Three, Dead]
    [50, 49], // [Three, Three, Three, One]
    [44, 47], // [Three, Three, Three, Two]
    [45, 48], // [Three, Three, Three, OpenTwo]
    [40, 41], // [Three, Three, Three, Three]
    [4, 10], // [OpenThree, Dead, Dead, Dead]
    [33, 15], // [OpenThree, One, Dead, Dead]
    [60, 46], // [OpenThree, One, One, Dead]
    [17, 13], // [OpenThree, One, One, One]
    [90, 50], // [OpenThree, Two, Dead, Dead]
    [164, 152], // [OpenThree, Two, One, Dead]
    [88, 74], // [OpenThree, Two, One, One]
    [112, 108], // [OpenThree, Two, Two, Dead]
    [126, 125], // [OpenThree, Two, Two, One]
    [77, 77], // [OpenThree, Two, Two, Two]
    [61, 56], // [OpenThree, OpenTwo, Dead, Dead]
    [148, 93], // [OpenThree, OpenTwo, One, Dead]
    [69, 60], // [OpenThree, OpenTwo, One, One]
    [198, 153], // [OpenThree, OpenTwo, Two, Dead]
    [110, 119], // [OpenThree, OpenTwo, Two, One]
    [106, 122], // [OpenThree, OpenTwo, Two, Two]
    [137, 81], // [OpenThree, OpenTwo, OpenTwo, Dead]
    [17, -5], // [OpenThree, OpenTwo, OpenTwo, One]
    [58, 65], // [OpenThree, OpenTwo, OpenTwo, Two]
    [70, 63], // [OpenThree, OpenTwo, OpenTwo, OpenTwo]
    [102, 63], // [OpenThree, Three, Dead, Dead]
    [128, 88], // [OpenThree, Three, One, Dead]
    [171, 156], // [OpenThree, Three, One, One]
    [114, 130], // [OpenThree, Three, Two, Dead]
    [194, 227], // [OpenThree, Three, Two, One]
    [114, 120], // [OpenThree, Three, Two, Two]
    [97, 96], // [OpenThree, Three, OpenTwo, Dead]
    [121, 110], // [OpenThree, Three, OpenTwo, One]
    [115, 141], // [OpenThree, Three, OpenTwo, Two]
    [77, 73], // [OpenThree, Three, OpenTwo, OpenTwo]
    [95, 58], // [OpenThree, Three, Three, Dead]
    [92, 96], // [OpenThree, Three, Three, One]
    [78, 72], // [OpenThree, Three, Three, Two]
    [74, 91], // [OpenThree, Three, Three, OpenTwo]
    [77, 77], // [OpenThree, Three, Three, Three]
    [304, -3], // [OpenThree, OpenThree, Dead, Dead]
    [261, 40], // [OpenThree, OpenThree, One, Dead]
    [-10, -90], // [OpenThree, OpenThree, One, One]
    [439, 337], // [OpenThree, OpenThree, Two, Dead]
    [228, 153], // [OpenThree, OpenThree, Two, One]
    [266, 189], // [OpenThree, OpenThree, Two, Two]
    [350, 326], // [OpenThree, OpenThree, OpenTwo, Dead]
    [172, -46], // [OpenThree, OpenThree, OpenTwo, One]
    [200, 89], // [OpenThree, OpenThree, OpenTwo, Two]
    [256, 271], // [OpenThree, OpenThree, OpenTwo, OpenTwo]
    [211, 172], // [OpenThree, OpenThree, Three, Dead]
    [326, 134], // [OpenThree, OpenThree, Three, One]
    [249, 69], // [OpenThree, OpenThree, Three, Two]
    [206, 192], // [OpenThree, OpenThree, Three, OpenTwo]
    [246, 230], // [OpenThree, OpenThree, Three, Three]
    [279, 240], // [OpenThree, OpenThree, OpenThree, Dead]
    [241, 222], // [OpenThree, OpenThree, OpenThree, One]
    [259, 240], // [OpenThree, OpenThree, OpenThree, Two]
    [268, 267], // [OpenThree, OpenThree, OpenThree, OpenTwo]
    [243, 247], // [OpenThree, OpenThree, OpenThree, Three]
    [300, 300], // [OpenThree, OpenThree, OpenThree, OpenThree]
    [-75, -1], // [Four, Dead, Dead, Dead]
    [89, 111], // [Four, One, Dead, Dead]
    [148, 160], // [Four, One, One, Dead]
    [57, 83], // [Four, One, One, One]
    [22, 29], // [Four, Two, Dead, Dead]
    [204, 242], // [Four, Two, One, Dead]
    [186, 206], // [Four, Two, One, One]
    [190, 210], // [Four, Two, Two, Dead]
    [202, 234], // [Four, Two, Two, One]
    [97, 116], // [Four, Two, Two, Two]
    [176, 152], // [Four, OpenTwo, Dead, Dead]
    [255, 250], // [Four, OpenTwo, One, Dead]
    [352, 316], // [Four, OpenTwo, One, One]
    [273, 338], // [Four, OpenTwo, Two, Dead]
    [276, 334], // [Four, OpenTwo, Two, One]
    [105, 176], // [Four, OpenTwo, Two, Two]
    [109, 133], // [Four, OpenTwo, OpenTwo, Dead]
    [241, 278], // [Four, OpenTwo, OpenTwo, One]
    [109, 123], // [Four, OpenTwo, OpenTwo, Two]
    [118, 131], // [Four, OpenTwo, OpenTwo, OpenTwo]
    [132, 118], // [Four, Three, Dead, Dead]
    [207, 194], // [Four, Three, One, Dead]
    [238, 295], // [Four, Three, One, One]
    [158, 152], // [Four, Three, Two, Dead]
    [232, 256], // [Four, Three, Two, One]
    [138, 187], // [Four, Three, Two, Two]
    [189, 200], // [Four, Three, OpenTwo, Dead]
    [129, 231], // [Four, Three, OpenTwo, One]
    [112, 142], // [Four, Three, OpenTwo, Two]
    [101, 137], // [Four, Three, OpenTwo, OpenTwo]
    [106, 100], // [Four, Three, Three, Dead]
    [96, 115], // [Four, Three, Three, One]
    [98, 113], // [Four, Three, Three, Two]
    [99, 104], // [Four, Three, Three, OpenTwo]
    [90, 93], // [Four, Three, Three, Three]
    [-636, 327], // [Four, OpenThree, Dead, Dead]
    [-525, 373], // [Four, OpenThree, One, Dead]
    [-763, 383], // [Four, OpenThree, One, One]
    [131, 574], // [Four, OpenThree, Two, Dead]
    [-105, 642], // [Four, OpenThree, Two, One]
    [208, 772], // [Four, OpenThree, Two, Two]
    [58, 491], // [Four, OpenThree, OpenTwo, Dead]
    [-278, 489], // [Four, OpenThree, OpenTwo, One]
    [291, 416], // [Four, OpenThree, OpenTwo, Two]
    [417, 512], // [Four, OpenThree, OpenTwo, OpenTwo]
    [111, 467], // [Four, OpenThree, Three, Dead]
    [352, 413], // [Four, OpenThree, Three, One]
    [439, 632], // [Four, OpenThree, Three, Two]
    [417, 454], // [Four, OpenThree, Three, OpenTwo]
    [427, 507], // [Four, OpenThree, Three, Three]
    [395, 227], // [Four, OpenThree, OpenThree, Dead]
    [270, 483], // [Four, OpenThree, OpenThree, One]
    [458, 409], // [Four, OpenThree, OpenThree, Two]
    [462, 422], // [Four, OpenThree, OpenThree, OpenTwo]
    [460, 467], // [Four, OpenThree, OpenThree, Three]
    [495, 495], // [Four, OpenThree, OpenThree, OpenThree]
    [320, 257], // [Four, Four, Dead, Dead]
    [321, 398], // [Four, Four, One, Dead]
    [322, 378], // [Four, Four, One, One]
    [324, 405], // [Four, Four, Two, Dead]
    [325, 230], // [Four, Four, Two, One]
    [328, 453], // [Four, Four, Two, Two]
    [332, 389], // [Four, Four, OpenTwo, Dead]
    [333, 399], // [Four, Four, OpenTwo, One]
    [336, 253], // [Four, Four, OpenTwo, Two]
    [344, 344], // [Four, Four, OpenTwo, OpenTwo]
    [330, 325], // [Four, Four, Three, Dead]
    [331, 373], // [Four, Four, Three, One]
    [334, 396], // [Four, Four, Three, Two]
    [342, 349], // [Four, Four, Three, OpenTwo]
    [340, 340], // [Four, Four, Three, Three]
    [365, 365], // [Four, Four, OpenThree, Dead]
    [366, 383], // [Four, Four, OpenThree, One]
    [369, 408], // [Four, Four, OpenThree, Two]
    [377, 377], // [Four, Four, OpenThree, OpenTwo]
    [375, 375], // [Four, Four, OpenThree, Three]
    [410, 410], // [Four, Four, OpenThree, OpenThree]
    [380, 380], // [Four, Four, Four, Dead]
    [381, 381], // [Four, Four, Four, One]
    [384, 384], // [Four, Four, Four, Two]
    [392, 392], // [Four, Four, Four, OpenTwo]
    [390, 390], // [Four, Four, Four, Three]
    [425, 425], // [Four, Four, Four, OpenThree]
    [440, 440], // [Four, Four, Four, Four]
    [500, 285], // [OpenFour, Dead, Dead, Dead]
    [501, 446], // [OpenFour, One, Dead, Dead]
    [502, 474], // [OpenFour, One, One, Dead]
    [503, 385], // [OpenFour, One, One, One]
    [504, 464], // [OpenFour, Two, Dead, Dead]
    [505, 607], // [OpenFour, Two, One, Dead]
    [506, 453], // [OpenFour, Two, One, One]
    [508, 814], // [OpenFour, Two, Two, Dead]
    [509, 574], // [OpenFour, Two, Two, One]
    [512, 579], // [OpenFour, Two, Two, Two]
    [512, 442], // [OpenFour, OpenTwo, Dead, Dead]
    [513, 483], // [OpenFour, OpenTwo, One, Dead]
    [514, 428], // [OpenFour, OpenTwo, One, One]
    [516, 714], // [OpenFour, OpenTwo, Two, Dead]
    [517, 418], // [OpenFour, OpenTwo, Two, One]
    [520, 360], // [OpenFour, OpenTwo, Two, Two]
    [524, 589], // [OpenFour, OpenTwo, OpenTwo, Dead]
    [525, 256], // [OpenFour, OpenTwo, OpenTwo, One]
    [528, 582], // [OpenFour, OpenTwo, OpenTwo, Two]
    [536, 809], // [OpenFour, OpenTwo, OpenTwo, OpenTwo]
    [510, 497], // [OpenFour, Three, Dead, Dead]
    [511, 604], // [OpenFour, Three, One, Dead]
    [512, 463], // [OpenFour, Three, One, One]
    [514, 527], // [OpenFour, Three, Two, Dead]
    [515, 390], // [OpenFour, Three, Two, One]
    [518, 473], // [OpenFour, Three, Two, Two]
    [522, 511], // [OpenFour, Three, OpenTwo, Dead]
    [523, 573], // [OpenFour, Three, OpenTwo, One]
    [526, 775], // [OpenFour, Three, OpenTwo, Two]
    [534, 469], // [OpenFour, Three, OpenTwo, OpenTwo]
    [520, 169], // [OpenFour, Three, Three, Dead]
    [521, 855], // [OpenFour, Three, Three, One]
    [524, 500], // [OpenFour, Three, Three, Two]
    [532, 535], // [OpenFour, Three, Three, OpenTwo]
    [530, 630], // [OpenFour, Three, Three, Three]
    [545, 282], // [OpenFour, OpenThree, Dead, Dead]
    [546, 105], // [OpenFour, OpenThree, One, Dead]
    [547, -32], // [OpenFour, OpenThree, One, One]
    [549, 749], // [OpenFour, OpenThree, Two, Dead]
    [550, 286], // [OpenFour, OpenThree, Two, One]
    [553, 637], // [OpenFour, OpenThree, Two, Two]
    [557, 425], // [OpenFour, OpenThree, OpenTwo, Dead]
    [558, 298], // [OpenFour, OpenThree, OpenTwo, One]
    [561, 325], // [OpenFour, OpenThree, OpenTwo, Two]
    [569, 672], // [OpenFour, OpenThree, OpenTwo, OpenTwo]
    [555, 549], // [OpenFour, OpenThree, Three, Dead]
    [556, 454], // [OpenFour, OpenThree, Three, One]
    [559, 641], // [OpenFour, OpenThree, Three, Two]
    [567, 565], // [OpenFour, OpenThree, Three, OpenTwo]
    [565, 565], // [OpenFour, OpenThree, Three, Three]
    [590, 590], // [OpenFour, OpenThree, OpenThree, Dead]
    [591, 495], // [OpenFour, OpenThree, OpenThree, One]
    [594, 594], // [OpenFour, OpenThree, OpenThree, Two]
    [602, 602], // [OpenFour, OpenThree, OpenThree, OpenTwo]
    [600, 600], // [OpenFour, OpenThree, OpenThree, Three]
    [635, 635], // [OpenFour, OpenThree, OpenThree, OpenThree]
    [560, 251], // [OpenFour, Four, Dead, Dead]
    [561, 688], // [OpenFour, Four, One, Dead]
    [562, 629], // [OpenFour, Four, One, One]
    [564, 694], // [OpenFour, Four, Two, Dead]
    [565, 734], // [OpenFour, Four, Two, One]
    [568, 593], // [OpenFour, Four, Two, Two]
    [572, 653], // [OpenFour, Four, OpenTwo, Dead]
    [573, 501], // [OpenFour, Four, OpenTwo, One]
    [576, 576], // [OpenFour, Four, OpenTwo, Two]
    [584, 584], // [OpenFour, Four, OpenTwo, OpenTwo]
    [570, 615], // [OpenFour, Four, Three, Dead]
    [571, 367], // [OpenFour, Four, Three, One]
    [574, 574], // [OpenFour, Four, Three, Two]
    [582, 582], // [OpenFour, Four, Three, OpenTwo]
    [580, 580], // [OpenFour, Four, Three, Three]
    [605, 628], // [OpenFour, Four, OpenThree, Dead]
    [606, 606], // [OpenFour, Four, OpenThree, One]
    [609, 609], // [OpenFour, Four, OpenThree, Two]
    [617, 617], // [OpenFour, Four, OpenThree, OpenTwo]
    [615, 615], // [OpenFour, Four, OpenThree, Three]
    [650, 650], // [OpenFour, Four, OpenThree, OpenThree]
    [620, 620], // [OpenFour, Four, Four, Dead]
    [621, 621], // [OpenFour, Four, Four, One]
    [624, 624], // [OpenFour, Four, Four, Two]
    [632, 632], // [OpenFour, Four, Four, OpenTwo]
    [630, 630], // [OpenFour, Four, Four, Three]
    [665, 665], // [OpenFour, Four, Four, OpenThree]
    [680, 680], // [OpenFour, Four, Four, Four]
    [800, 707], // [OpenFour, OpenFour, Dead, Dead]
    [801, 801], // [OpenFour, OpenFour, One, Dead]
    [802, 802], // [OpenFour, OpenFour, One, One]
    [804, 804], // [OpenFour, OpenFour, Two, Dead]
    [805, 779], // [OpenFour, OpenFour, Two, One]
    [808, 808], // [OpenFour, OpenFour, Two, Two]
    [812, 812], // [OpenFour, OpenFour, OpenTwo, Dead]
    [813, 779], // [OpenFour, OpenFour, OpenTwo, One]
    [816, 710], // [OpenFour, OpenFour, OpenTwo, Two]
    [824, 824], // [OpenFour, OpenFour, OpenTwo, OpenTwo]
    [810, 847], // [OpenFour, OpenFour, Three, Dead]
    [811, 811], // [OpenFour, OpenFour, Three, One]
    [814, 814], // [OpenFour, OpenFour, Three, Two]
    [822, 822], // [OpenFour, OpenFour, Three, OpenTwo]
    [820, 820], // [OpenFour, OpenFour, Three, Three]
    [845, 656], // [OpenFour, OpenFour, OpenThree, Dead]
    [846, 846], // [OpenFour, OpenFour, OpenThree, One]
    [849, 849], // [OpenFour, OpenFour, OpenThree, Two]
    [857, 857], // [OpenFour, OpenFour, OpenThree, OpenTwo]
    [855, 855], // [OpenFour, OpenFour, OpenThree, Three]
    [890, 890], // [OpenFour, OpenFour, OpenThree, OpenThree]
    [860, 860], // [OpenFour, OpenFour, Four, Dead]
    [861, 861], // [OpenFour, OpenFour, Four, One]
    [864, 864], // [OpenFour, OpenFour, Four, Two]
    [872, 872], // [OpenFour, OpenFour, Four, OpenTwo]
    [870, 870], // [OpenFour, OpenFour, Four, Three]
    [905, 905], // [OpenFour, OpenFour, Four, OpenThree]
    [920, 920], // [OpenFour, OpenFour, Four, Four]
    [1100, 1100], // [OpenFour, OpenFour, OpenFour, Dead]
    [1101, 1101], // [OpenFour, OpenFour, OpenFour, One]
    [1104, 1104], // [OpenFour, OpenFour, OpenFour, Two]
    [1112, 1112], // [OpenFour, OpenFour, OpenFour, OpenTwo]
    [1110, 1110], // [OpenFour, OpenFour, OpenFour, Three]
    [1145, 1145], // [OpenFour, OpenFour, OpenFour, OpenThree]
    [1160, 1160], // [OpenFour, OpenFour, OpenFour, Four]
    [1400, 1400], // [OpenFour, OpenFour, OpenFour, OpenFour]
    [1000, 1000], // [Five, Dead, Dead, Dead]
    [1001, 1001], // [Five, One, Dead, Dead]
    [1002, 1002], // [Five, One, One, Dead]
    [1003, 1003], // [Five, One, One, One]
    [1004, 1004], // [Five, Two, Dead, Dead]
    [1005, 1005], // [Five, Two, One, Dead]
    [1006, 1006], // [Five, Two, One, One]
    [1008, 1008], // [Five, Two, Two, Dead]
    [1009, 1009], // [Five, Two, Two, One]
    [1012, 1012], // [Five, Two, Two, Two]
    [1012, 1012], // [Five, OpenTwo, Dead, Dead]
    [1013, 1013], // [Five, OpenTwo, One, Dead]
    [1014, 1014], // [Five, OpenTwo, One, One]
    [1016, 1016], // [Five, OpenTwo, Two, Dead]
    [1017, 1017], // [Five, OpenTwo, Two, One]
    [1020, 1020], // [Five, OpenTwo, Two, Two]
    [1024, 1024], // [Five, OpenTwo, OpenTwo, Dead]
    [1025, 1025], // [Five, OpenTwo, OpenTwo, One]
    [1028, 1028], // [Five, OpenTwo, OpenTwo, Two]
    [1036, 1036], // [Five, OpenTwo, OpenTwo, OpenTwo]
    [1010, 1010], // [Five, Three, Dead, Dead]
    [1011, 1011], // [Five, Three, One, Dead]
    [1012, 1012], // [Five, Three, One, One]
    [1014, 1014], // [Five, Three, Two, Dead]
    [1015, 1015], // [Five, Three, Two, One]
    [1018, 1018], // [Five, Three, Two, Two]
    [1022, 1022], // [Five, Three, OpenTwo, Dead]
    [1023, 1023], // [Five, Three, OpenTwo, One]
    [1026, 1026], // [Five, Three, OpenTwo, Two]
    [1034, 1034], // [Five, Three, OpenTwo, OpenTwo]
    [1020, 1020], // [Five, Three, Three, Dead]
    [1021, 1021], // [Five, Three, Three, One]
    [1024, 1024], // [Five, Three, Three, Two]
    [1032, 1032], // [Five, Three, Three, OpenTwo]
    [1030, 1030], // [Five, Three, Three, Three]
    [1045, 1045], // [Five, OpenThree, Dead, Dead]
    [1046, 1046], // [Five, OpenThree, One, Dead]
    [1047, 1047], // [Five, OpenThree, One, One]
    [1049, 1049], // [Five, OpenThree, Two, Dead]
    [1050, 1050], // [Five, OpenThree, Two, One]
    [1053, 1053], // [Five, OpenThree, Two, Two]
    [1057, 1057], // [Five, OpenThree, OpenTwo, Dead]
    [1058, 1058], // [Five, OpenThree, OpenTwo, One]
    [1061, 1061], // [Five, OpenThree, OpenTwo, Two]
    [1069, 1069], // [Five, OpenThree, OpenTwo, OpenTwo]
    [1055, 1055], // [Five, OpenThree, Three, Dead]
    [1056, 1056], // [Five, OpenThree, Three, One]
    [1059, 1059], // [Five, OpenThree, Three, Two]
    [1067, 1067], // [Five, OpenThree, Three, OpenTwo]
    [1065, 1065], // [Five, OpenThree, Three, Three]
    [1090, 1090], // [Five, OpenThree, OpenThree, Dead]
    [1091, 1091], // [Five, OpenThree, OpenThree, One]
    [1094, 1094], // [Five, OpenThree, OpenThree, Two]
    [1102, 1102], // [Five, OpenThree, OpenThree, OpenTwo]
    [1100, 1100], // [Five, OpenThree, OpenThree, Three]
    [1135, 1135], // [Five, OpenThree, OpenThree, OpenThree]
    [1060, 1060], // [Five, Four, Dead, Dead]
    [1061, 1061], // [Five, Four, One, Dead]
    [1062, 1062], // [Five, Four, One, One]
    [1064, 1064], // [Five, Four, Two, Dead]
    [1065, 1065], // [Five, Four, Two, One]
    [1068, 1068], // [Five, Four, Two, Two]
    [1072, 1072], // [Five, Four, OpenTwo, Dead]
    [1073, 1073], // [Five, Four, OpenTwo, One]
    [1076, 1076], // [Five, Four, OpenTwo, Two]
    [1084, 1084], // [Five, Four, OpenTwo, OpenTwo]
    [1070, 1070], // [Five, Four, Three, Dead]
    [1071, 1071], // [Five, Four, Three, One]
    [1074, 1074], // [Five, Four, Three, Two]
    [1082, 1082], // [Five, Four, Three, OpenTwo]
    [1080, 1080], // [Five, Four, Three, Three]
    [1105, 1105], // [Five, Four, OpenThree, Dead]
    [1106, 1106], // [Five, Four, OpenThree, One]
    [1109, 1109], // [Five, Four, OpenThree, Two]
    [1117, 1117], // [Five, Four, OpenThree, OpenTwo]
    [1115, 1115], // [Five, Four, OpenThree, Three]
    [1150, 1150], // [Five, Four, OpenThree, OpenThree]
    [1120, 1120], // [Five, Four, Four, Dead]
    [1121, 1121], // [Five, Four, Four, One]
    [1124, 1124], // [Five, Four, Four, Two]
    [1132, 1132], // [Five, Four, Four, OpenTwo]
    [1130, 1130], // [Five, Four, Four, Three]
    [1165, 1165], // [Five, Four, Four, OpenThree]
    [1180, 1180], // [Five, Four, Four, Four]
    [1300, 1300], // [Five, OpenFour, Dead, Dead]
    [1301, 1301], // [Five, OpenFour, One, Dead]
    [1302, 1302], // [Five, OpenFour, One, One]
    [1304, 1304], // [Five, OpenFour, Two, Dead]
    [1305, 1305], // [Five, OpenFour, Two, One]
    [1308, 1308], // [Five, OpenFour, Two, Two]
    [1312, 1312], // [Five, OpenFour, OpenTwo, Dead]
    [1313, 1313], // [Five, OpenFour, OpenTwo, One]
    [1316, 1316], // [Five, OpenFour, OpenTwo, Two]
    [1324, 1324], // [Five, OpenFour, OpenTwo, OpenTwo]
    [1310, 1310], // [Five, OpenFour, Three, Dead]
    [1311, 1311], // [Five, OpenFour, Three, One]
    [1314, 1314], // [Five, OpenFour, Three, Two]
    [1322, 1322], // [Five, OpenFour, Three, OpenTwo]
    [1320, 1320], // [Five, OpenFour, Three, Three]
    [1345, 1345], // [Five, OpenFour, OpenThree, Dead]
    [1346, 1346], // [Five, OpenFour, OpenThree, One]
    [1349, 1349], // [Five, OpenFour, OpenThree, Two]
    [1357, 1357], // [Five, OpenFour, OpenThree, OpenTwo]
    [1355, 1355], // [Five, OpenFour, OpenThree, Three]
    [1390, 1390], // [Five, OpenFour, OpenThree, OpenThree]
    [1360, 1360], // [Five, OpenFour, Four, Dead]
    [1361, 1361], // [Five, OpenFour, Four, One]
    [1364, 1364], // [Five, OpenFour, Four, Two]
    [1372, 1372], // [Five, OpenFour, Four, OpenTwo]
    [1370, 1370], // [Five, OpenFour, Four, Three]
    [1405, 1405], // [Five, OpenFour, Four, OpenThree]
    [1420, 1420], // [Five, OpenFour, Four, Four]
    [1600, 1600], // [Five, OpenFour, OpenFour, Dead]
    [1601, 1601], // [Five, OpenFour, OpenFour, One]
    [1604, 1604], // [Five, OpenFour, OpenFour, Two]
    [1612, 1612], // [Five, OpenFour, OpenFour, OpenTwo]
    [1610, 1610], // [Five, OpenFour, OpenFour, Three]
    [1645, 1645], // [Five, OpenFour, OpenFour, OpenThree]
    [1660, 1660], // [Five, OpenFour, OpenFour, Four]
    [1900, 1900], // [Five, OpenFour, OpenFour, OpenFour]
    [2000, 2000], // [Five, Five, Dead, Dead]
    [2001, 2001], // [Five, Five, One, Dead]
    [2002, 2002], // [Five, Five, One, One]
    [2004, 2004], // [Five, Five, Two, Dead]
    [2005, 2005], // [Five, Five, Two, One]
    [2008, 2008], // [Five, Five, Two, Two]
    [2012, 2012], // [Five, Five, OpenTwo, Dead]
    [2013, 2013], // [Five, Five, OpenTwo, One]
    [2016, 2016], // [Five, Five, OpenTwo, Two]
    [2024, 2024], // [Five, Five, OpenTwo, OpenTwo]
    [2010, 2010], // [Five, Five, Three, Dead]
    [2011, 2011], // [Five, Five, Three, One]
    [2014, 2014], // [Five, Five, Three, Two]
    [2022, 2022], // [Five, Five, Three, OpenTwo]
    [2020, 2020], // [Five, Five, Three, Three]
    [2045, 2045], // [Five, Five, OpenThree, Dead]
    [2046, 2046], // [Five, Five, OpenThree, One]
    [2049, 2049], // [Five, Five, OpenThree, Two]
    [2057, 2057], // [Five, Five, OpenThree, OpenTwo]
    [2055, 2055], // [Five, Five, OpenThree, Three]
    [2090, 2090], // [Five, Five, OpenThree, OpenThree]
    [2060, 2060], // [Five, Five, Four, Dead]
    [2061, 2061], // [Five, Five, Four, One]
    [2064, 2064], // [Five, Five, Four, Two]
    [2072, 2072], // [Five, Five, Four, OpenTwo]
    [2070, 2070], // [Five, Five, Four, Three]
    [2105, 2105], // [Five, Five, Four, OpenThree]
    [2120, 2120], // [Five, Five, Four, Four]
    [2300, 2300], // [Five, Five, OpenFour, Dead]
    [2301, 2301], // [Five, Five, OpenFour, One]
    [2304, 2304], // [Five, Five, OpenFour, Two]
    [2312, 2312], // [Five, Five, OpenFour, OpenTwo]
    [2310, 2310], // [Five, Five, OpenFour, Three]
    [2345, 2345], // [Five, Five, OpenFour, OpenThree]
    [2360, 2360], // [Five, Five, OpenFour, Four]
    [2600, 2600], // [Five, Five, OpenFour, OpenFour]
    [3000, 3000], // [Five, Five, Five, Dead]
    [3001, 3001], // [Five, Five, Five, One]
    [3004, 3004], // [Five, Five, Five, Two]
    [3012, 3012], // [Five, Five, Five, OpenTwo]
    [3010, 3010], // [Five, Five, Five, Three]
    [3045, 3045], // [Five, Five, Five, OpenThree]
    [3060, 3060], // [Five, Five, Five, Four]
    [3300, 3300], // [Five, Five, Five, OpenFour]
    [4000, 4000], // [Five, Five, Five, Five]
];

/// By `Gomoku::threat_mask` + 2^11 if White is to move, the masks whose correction is not zero.
#[rustfmt::skip]
pub const THREAT_VALUES: &[(u16, i16)] = &[
    (0b000000000000, 46),
    (0b000000010000, -1),
    (0b000000010010, -62),
    (0b000001000000, 10),
    (0b000001010000, 59),
    (0b000001010010, -44),
    (0b000001011000, 12),
    (0b000001011010, 2),
    (0b000001100000, -45),
    (0b000001110000, -71),
    (0b000001111000, -1),
    (0b000100000000, -23),
    (0b000100010000, 208),
    (0b000100010010, -169),
    (0b000100010100, 212),
    (0b000100010110, -99),
    (0b000101000000, 267),
    (0b000101010000, 545),
    (0b000101010010, -533),
    (0b000101010100, 452),
    (0b000101010110, -216),
    (0b000101011000, -152),
    (0b000101011010, 7),
    (0b000101011100, -110),
    (0b000101011110, -30),
    (0b000101100000, 32),
    (0b000101110000, 215),
    (0b000101110010, -51),
    (0b000101110100, 175),
    (0b000101110110, -75),
    (0b000101111000, -2),
    (0b000101111100, 2),
    (0b000101111110, -8),
    (0b000110000000, 15),
    (0b000110010000, -4),
    (0b000110010100, 8),
    (0b000111000000, 12),
    (0b000111010000, -2),
    (0b000111010100, 16),
    (0b000111110100, -8),
    (0b001101000000, -1),
    (0b001101010000, -7),
    (0b010000000000, 172),
    (0b010000010000, -36),
    (0b010000010010, -141),
    (0b010001000000, -42),
    (0b010001001010, 4),
    (0b010001010000, 325),
    (0b010001010010, -221),
    (0b010001011000, 162),
    (0b010001011010, 20),
    (0b010001100000, -874),
    (0b010001110000, -476),
    (0b010001110010, 3),
    (0b010001111000, 30),
    (0b010001111010, 2),
    (0b010010010100, -2),
    (0b010011010000, 2),
    (0b010011010100, -5),
    (0b010011110000, 6),
    (0b010100000000, -28),
    (0b010100010000, 23),
    (0b010100010010, -916),
    (0b010100010100, 116),
    (0b010100010110, -455),
    (0b010100011100, -29),
    (0b010100011110, -7),
    (0b010101000000, 32),
    (0b010101001000, 5),
    (0b010101001100, 3),
    (0b010101010000, 403),
    (0b010101010010, -1411),
    (0b010101010100, 201),
    (0b010101010110, -1098),
    (0b010101011000, -646),
    (0b010101011100, -219),
    (0b010101011110, -26),
    (0b010101100000, -94),
    (0b010101101000, 1),
    (0b010101101110, -6),
    (0b010101110000, 448),
    (0b010101110010, -207),
    (0b010101110100, 181),
    (0b010101110110, -132),
    (0b010101111000, -100),
    (0b010101111010, 2),
    (0b010101111100, -5),
    (0b010101111110, 4),
    (0b010110000000, 223),
    (0b010110010000, -94),
    (0b010110010010, -82),
    (0b010110010100, -12),
    (0b010110011110, -4),
    (0b010111000000, 765),
    (0b010111010000, 44),
    (0b010111010010, -424),
    (0b010111010100, -90),
    (0b010111010110, -217),
    (0b010111011000, -182),
    (0b010111011010, 11),
    (0b010111011100, -41),
    (0b010111011110, 5),
    (0b010111100000, 305),
    (0b010111110000, 64),
    (0b010111110010, -26),
    (0b010111110100, -29),
    (0b010111110110, -30),
    (0b010111111000, 16),
    (0b010111111100, 39),
    (0b011000000000, 248),
    (0b011000010000, 17),
    (0b011000010010, -79),
    (0b011001000000, 312),
    (0b011001010000, 463),
    (0b011001010010, -35),
    (0b011001011000, 109),
    (0b011001011010, 7),
    (0b011001100000, -118),
    (0b011001110000, 1),
    (0b011001110010, 4),
    (0b011001111000, 27),
    (0b011011010100, 5),
    (0b011011011100, 2),
    (0b011100000000, 72),
    (0b011100010000, -120),
    (0b011100010010, -116),
    (0b011100010100, 27),
    (0b011100010110, -46),
    (0b011101000000, 342),
    (0b011101001000, 3),
    (0b011101010000, 306),
    (0b011101010010, -459),
    (0b011101010100, -76),
    (0b011101010110, -146),
    (0b011101011000, -130),
    (0b011101011010, 2),
    (0b011101011100, 85),
    (0b011101011110, 1),
    (0b011101100000, 111),
    (0b011101101100, 1),
    (0b011101110000, 207),
    (0b011101110010, -33),
    (0b011101110100, 66),
    (0b011101110110, 3),
    (0b011101111000, 4),
    (0b011101111010, 1),
    (0b011101111100, 34),
    (0b011101111110, 11),
    (0b011110000000, -18),
    (0b011110010000, -25),
    (0b011110010010, -31),
    (0b011110010100, 23),
    (0b011110010110, -14),
    (0b011111000000, 7),
    (0b011111010000, -98),
    (0b011111010010, -44),
    (0b011111010100, 59),
    (0b011111010110, -24),
    (0b011111011000, -35),
    (0b011111011010, 7),
    (0b011111011100, 49),
    (0b011111100000, -43),
    (0b011111110000, 73),
    (0b011111110100, -29),
    (0b011111110110, 2),
    (0b011111111000, -11),
    (0b011111111100, -16),
    (0b100000000000, -444),
    (0b100000010000, -108),
    (0b100001000000, -269),
    (0b100001010000, 108),
    (0b100001011000, -1),
    (0b100001100000, 2),
    (0b100001110000, -1),
    (0b100001111000, -3),
    (0b100100000000, -80),
    (0b100100000100, -14),
    (0b100100010000, -29),
    (0b100100010100, 9),
    (0b100100011000, 1),
    (0b100101000000, 40),
    (0b100101000100, 28),
    (0b100101001100, 2),
    (0b100101010000, 321),
    (0b100101010100, 163),
    (0b100101011000, -149),
    (0b100101011100, -184),
    (0b100101100000, 41),
    (0b100101100100, 21),
    (0b100101110000, 164),
    (0b100101110100, 80),
    (0b100101111000, -13),
    (0b100101111100, -27),
    (0b100111010000, -5),
    (0b101111010000, 4),
    (0b110000000000, -243),
    (0b110000010000, -274),
    (0b110000011000, -3),
    (0b110001000000, -297),
    (0b110001010000, 216),
    (0b110001011000, 43),
    (0b110001100000, 19),
    (0b110001110000, 75),
    (0b110001111000, 11),
    (0b110010000000, 4),
    (0b110010010100, 1),
    (0b110011000000, 15),
    (0b110011000100, 6),
    (0b110011010000, 6),
    (0b110011011000, 2),
    (0b110011110000, 5),
    (0b110100000000, -86),
    (0b110100000100, 37),
    (0b110100010000, -248),
    (0b110100010100, -212),
    (0b110101000000, -171),
    (0b110101000100, 124),
    (0b110101001000, 2),
    (0b110101010000, 99),
    (0b110101010100, -89),
    (0b110101011000, -519),
    (0b110101011100, -408),
    (0b110101100000, -85),
    (0b110101100100, -10),
    (0b110101110000, 309),
    (0b110101110100, -152),
    (0b110101111000, -3),
    (0b110101111100, -5),
    (0b110110000000, 594),
    (0b110110000100, -6),
    (0b110110010000, -210),
    (0b110110010100, -95),
    (0b110111000000, 964),
    (0b110111000100, -10),
    (0b110111001000, 3),
    (0b110111010000, -135),
    (0b110111010100, -504),
    (0b110111011000, -306),
    (0b110111011100, -18),
    (0b110111100000, 254),
    (0b110111100100, 19),
    (0b110111110000, -108),
    (0b110111110100, -319),
    (0b110111111000, 7),
    (0b110111111100, 10),
    (0b111000000000, 89),
    (0b111000010000, -91),
    (0b111001000000, 266),
    (0b111001010000, 609),
    (0b111001011000, 28),
    (0b111001100000, 15),
    (0b111001110000, 12),
    (0b111010010000, 6),
    (0b111011010000, 5),
    (0b111011010100, 5),
    (0b111011011000, 2),
    (0b111011111000, -1),
    (0b111100000000, -6),
    (0b111100010000, -245),
    (0b111100010100, -101),
    (0b111100011100, 2),
    (0b111101000000, 183),
    (0b111101000100, 3),
    (0b111101010000, 21),
    (0b111101010100, -145),
    (0b111101011000, -11),
    (0b111101011100, 36),
    (0b111101100000, 36),
    (0b111101100100, 1),
    (0b111101101100, 2),
    (0b111101110000, 143),
    (0b111101110100, -82),
    (0b111101111000, 5),
    (0b111101111100, 25),
    (0b111110000000, 38),
    (0b111110010000, -43),
    (0b111110010100, 3),
    (0b111111000000, 59),
    (0b111111000100, -12),
    (0b111111010000, -133),
    (0b111111010100, -265),
    (0b111111011000, 5),
    (0b111111011100, 16),
    (0b111111100000, -33),
    (0b111111110000, 31),
    (0b111111110100, -29),
    (0b111111111000, 5),
    (0b111111111100, -14),
];
